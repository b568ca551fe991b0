# find_package(ASC): CMake's ASC language (CANN 9) on npud's install tree.
#
#   set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "")
#   find_package(ASC REQUIRED)
#   project(demo LANGUAGES ASC CXX)
#   add_executable(demo add.asc)          # kernels and host code in one .asc
#
# This file is installed twice, as CANN installs it: <root>/lib64/cmake/ (found
# through CMAKE_PREFIX_PATH, which set_env.sh extends) and
# <root>/tikcpp/ascendc_kernel_cmake/. Both are two levels below the root, which
# is where the language modules (asc_modules/) and the compiler driver
# (<root>/bin/bisheng) are found; ASCEND_HOME_PATH is not needed.
#
# What it provides: the ASC language (enable it with project() or
# enable_language(ASC)); `.asc` sources build with bisheng into objects holding
# both the host code and the kernel object; executables and shared libraries
# with ASC code link against <root>/lib64/libacl_rt.so. The functions of CANN's
# FindASC: ascendc_library(<name> STATIC|SHARED <sources>),
# ascendc_fatbin_library(<name> <sources>) (a kernel object <name>.o),
# ascendc_compile_options / _definitions / _include_directories.

if(_NPUD_ASC_LOADED)
  set(ASC_FOUND TRUE)
  return()
endif()

get_filename_component(_npud_asc_self "${CMAKE_CURRENT_LIST_FILE}" REALPATH)
get_filename_component(_npud_asc_root "${_npud_asc_self}/../../.." ABSOLUTE)
if(NOT EXISTS "${_npud_asc_root}/tikcpp/ascendc_kernel_cmake/asc_modules/CMakeASCInformation.cmake")
  message(FATAL_ERROR "find_package(ASC): ${_npud_asc_root} is not an npud install tree "
                      "(no tikcpp/ascendc_kernel_cmake/asc_modules)")
endif()
set(NPUD_ASC_ROOT "${_npud_asc_root}" CACHE INTERNAL "npud install tree of the ASC language")
list(APPEND CMAKE_MODULE_PATH "${_npud_asc_root}/tikcpp/ascendc_kernel_cmake/asc_modules")
include("${_npud_asc_root}/tikcpp/ascendc_kernel_cmake/asc_modules/asc_functions.cmake")
unset(_npud_asc_self)
unset(_npud_asc_root)
set(_NPUD_ASC_LOADED TRUE)
set(ASC_FOUND TRUE)
