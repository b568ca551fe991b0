# ascendc.cmake: npud's stand-in for the CANN package's
# tikcpp/ascendc_kernel_cmake/ascendc.cmake. AscendC kernel sources are built with the host
# C++ compiler against the CPU AscendC headers into kernel shared objects that the npud
# daemon runs; `<<<>>>` launches go through the ACL runtime (libacl_rt.so). See README.md
# next to this file for how it works.
#
#   include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)
#
#   ascendc_library(<name> STATIC|SHARED|OBJECT <sources...>)
#       Mixed mode: the host library <name> with the kernel object embedded; the sources'
#       host functions launch its kernels with kernel<<<blockDim, l2ctrl, stream>>>(...).
#       Linking <name> brings in the ACL runtime and its headers.
#   ascendc_fatbin_library(<name> <sources...>)
#       Only the kernel object, built at ${CMAKE_INSTALL_PREFIX}/fatbin/<name>/<name>.o
#       (and installed there); host code loads it with aclrtBinaryLoadFromFile.
#   ascendc_compile_options(<target> [PRIVATE|PUBLIC|INTERFACE] <options...>
#                           [-forward-options-to-host-compiler <host-only options...>])
#   ascendc_compile_definitions(<target> [PRIVATE|PUBLIC|INTERFACE] <definitions...>)
#   ascendc_include_directories(<target> [PRIVATE|PUBLIC|INTERFACE] <dirs...>)
#       Apply to both the kernel object and the host library of <target>.
#
# Inputs (all optional): SOC_VERSION (default Ascend910B1; case-insensitive; sets
# __NPU_ARCH__), RUN_MODE (npu|cpu|sim, all the same here), ASCEND_CANN_PACKAGE_PATH (the
# package root; default: the root this file is installed in, <root>/tikcpp/ascendc_kernel_cmake).
# Sets ASCEND_CANN_PACKAGE_PATH if it was not set, and NPUD_ASCENDC_SOC_VERSION,
# NPUD_ASCENDC_NPU_ARCH, NPUD_ASCENDC_INCLUDE_DIR, NPUD_ASCENDC_ACL_LIBRARY and
# NPUD_ASCENDC_SCAN (the kernel scanner, <root>/bin/npud-ascendc-scan, if not set before).

if(CMAKE_VERSION VERSION_LESS 3.16)
  message(FATAL_ERROR "npud's ascendc.cmake needs CMake 3.16 or newer (this is ${CMAKE_VERSION})")
endif()
if(NOT CMAKE_CXX_COMPILER_LOADED)
  enable_language(CXX)
endif()

set(NPUD_ASCENDC_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")

# --- The kernel headers and kernel compile options: installed next to this file
#     (include/, npud_ascendc_options.cmake), or one level up in npud's source tree.
set(NPUD_ASCENDC_INCLUDE_DIR "")
foreach(_npud_dir "${CMAKE_CURRENT_LIST_DIR}" "${CMAKE_CURRENT_LIST_DIR}/..")
  if(EXISTS "${_npud_dir}/include/kernel_operator.h" AND EXISTS "${_npud_dir}/npud_ascendc_options.cmake")
    get_filename_component(NPUD_ASCENDC_INCLUDE_DIR "${_npud_dir}/include" ABSOLUTE)
    include("${_npud_dir}/npud_ascendc_options.cmake")
    break()
  endif()
endforeach()
if(NPUD_ASCENDC_INCLUDE_DIR STREQUAL "")
  message(FATAL_ERROR "npud's ascendc.cmake: the AscendC kernel headers (include/kernel_operator.h) "
                      "and npud_ascendc_options.cmake are not next to ${CMAKE_CURRENT_LIST_FILE}")
endif()

# --- The package root: include/acl/acl.h and lib64/libacl_rt.so.
get_filename_component(_npud_own_root "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
set(_npud_root "")
if(DEFINED ASCEND_CANN_PACKAGE_PATH AND NOT "${ASCEND_CANN_PACKAGE_PATH}" STREQUAL "")
  get_filename_component(_npud_given "${ASCEND_CANN_PACKAGE_PATH}" ABSOLUTE)
  if(EXISTS "${_npud_given}/include/acl/acl.h" AND EXISTS "${_npud_given}/lib64/libacl_rt.so")
    set(_npud_root "${_npud_given}")
  elseif(EXISTS "${_npud_own_root}/include/acl/acl.h" AND EXISTS "${_npud_own_root}/lib64/libacl_rt.so")
    message(WARNING "ASCEND_CANN_PACKAGE_PATH=${ASCEND_CANN_PACKAGE_PATH} has no include/acl/acl.h "
                    "and lib64/libacl_rt.so; using the package ascendc.cmake is installed in: "
                    "${_npud_own_root}")
    set(_npud_root "${_npud_own_root}")
  endif()
elseif(EXISTS "${_npud_own_root}/include/acl/acl.h" AND EXISTS "${_npud_own_root}/lib64/libacl_rt.so")
  set(_npud_root "${_npud_own_root}")
endif()
if(_npud_root STREQUAL "")
  message(FATAL_ERROR "npud's ascendc.cmake: no ACL runtime found. Looked for include/acl/acl.h and "
                      "lib64/libacl_rt.so in ASCEND_CANN_PACKAGE_PATH (${ASCEND_CANN_PACKAGE_PATH}) and "
                      "in ${_npud_own_root}. Set ASCEND_CANN_PACKAGE_PATH to the npud install root.")
endif()
if(NOT DEFINED ASCEND_CANN_PACKAGE_PATH OR "${ASCEND_CANN_PACKAGE_PATH}" STREQUAL "")
  set(ASCEND_CANN_PACKAGE_PATH "${_npud_root}")
endif()
set(NPUD_ASCENDC_ROOT "${_npud_root}")
set(NPUD_ASCENDC_ACL_INCLUDE_DIR "${_npud_root}/include")
set(NPUD_ASCENDC_ACL_LIBRARY "${_npud_root}/lib64/libacl_rt.so")

# --- The kernel scanner that runs the source pass of every kernel source (README.md):
#     npud-ascendc-scan in <root>/bin of the tree this file is installed in, unless
#     NPUD_ASCENDC_SCAN names another one.
if(NOT NPUD_ASCENDC_SCAN)
  set(NPUD_ASCENDC_SCAN "${_npud_own_root}/bin/npud-ascendc-scan")
endif()
if(NOT EXISTS "${NPUD_ASCENDC_SCAN}")
  message(FATAL_ERROR "npud's ascendc.cmake: the kernel scanner ${NPUD_ASCENDC_SCAN} does not exist. "
                      "Use the ascendc.cmake of an npud install tree (<root>/tikcpp/ascendc_kernel_cmake) "
                      "or set NPUD_ASCENDC_SCAN to npud-ascendc-scan.")
endif()

# --- SOC_VERSION -> __NPU_ARCH__.
set(_npud_soc "${SOC_VERSION}")
if(_npud_soc STREQUAL "")
  set(_npud_soc "Ascend910B1")
  message(STATUS "npud AscendC: SOC_VERSION is not set, using ${_npud_soc}")
endif()
string(TOLOWER "${_npud_soc}" _npud_soc_lower)
if(_npud_soc_lower MATCHES "^ascend910b(1|2|2c|3|4|4-1)$" OR _npud_soc_lower MATCHES "^ascend910_93[0-9][0-9]$")
  set(NPUD_ASCENDC_NPU_ARCH 2201)
elseif(_npud_soc_lower MATCHES "^ascend310p[1357](vir[0-9]+)?$")
  set(NPUD_ASCENDC_NPU_ARCH 2002)
elseif(_npud_soc_lower MATCHES "^ascend950(pr|dt)_[0-9a-z]+$")
  set(NPUD_ASCENDC_NPU_ARCH 3510)
else()
  message(FATAL_ERROR "SOC_VERSION '${SOC_VERSION}' is not a SoC the npud simulator models. Use one "
                      "of (case-insensitive): Ascend910B1, Ascend910B2, Ascend910B2C, Ascend910B3, "
                      "Ascend910B4, Ascend910B4-1, Ascend910_93xx (e.g. Ascend910_9391), "
                      "Ascend310P1/P3/P5/P7 (also ...virNN), Ascend950PR_xxxx, Ascend950DT_xxxx.")
endif()
set(NPUD_ASCENDC_SOC_VERSION "${_npud_soc}")

# --- RUN_MODE: upstream builds for the NPU, a CPU debug library or a simulator; here all
#     three build the same kernel objects for npud.
string(TOLOWER "${RUN_MODE}" _npud_run_mode)
if(_npud_run_mode STREQUAL "")
  set(_npud_run_mode npu)
endif()
if(NOT _npud_run_mode MATCHES "^(npu|cpu|sim)$")
  message(FATAL_ERROR "RUN_MODE '${RUN_MODE}' is not one of npu, cpu, sim")
endif()
message(STATUS "npud AscendC: SOC_VERSION ${NPUD_ASCENDC_SOC_VERSION} (__NPU_ARCH__ ${NPUD_ASCENDC_NPU_ARCH}), "
               "RUN_MODE ${_npud_run_mode}: kernels are built for the npud simulator (${NPUD_ASCENDC_ROOT})")

# The configuration, also as global properties for functions called from directories that
# did not include this file themselves.
foreach(_npud_var NPUD_ASCENDC_CMAKE_DIR NPUD_ASCENDC_SCAN NPUD_ASCENDC_INCLUDE_DIR NPUD_ASCENDC_ROOT
                  NPUD_ASCENDC_ACL_INCLUDE_DIR NPUD_ASCENDC_ACL_LIBRARY NPUD_ASCENDC_NPU_ARCH
                  NPUD_ASCENDC_KERNEL_COMPILE_OPTIONS)
  set_property(GLOBAL PROPERTY ${_npud_var} "${${_npud_var}}")
endforeach()

# ---------------------------------------------------------------------------------------
# Internals.

# The value of configuration variable `var` where the function is called.
function(_npud_ascendc_config var out)
  if(DEFINED ${var})
    set(${out} "${${var}}" PARENT_SCOPE)
  else()
    get_property(value GLOBAL PROPERTY ${var})
    if(NOT DEFINED value)
      message(FATAL_ERROR "include ascendc.cmake before using ascendc_library/ascendc_fatbin_library")
    endif()
    set(${out} "${value}" PARENT_SCOPE)
  endif()
endfunction()

# Adds the source pass (npud-ascendc-scan source) of every source of target `name`.
# Sets <prefix>_device (device translation units), <prefix>_host (host translation units,
# only when `namespace` is not empty) and <prefix>_dir (the generated files' directory).
function(_npud_ascendc_sources name namespace prefix)
  _npud_ascendc_config(NPUD_ASCENDC_SCAN scan)
  set(gen "${CMAKE_CURRENT_BINARY_DIR}/auto_gen/${name}")
  file(MAKE_DIRECTORY "${gen}")
  set(device_tus "")
  set(host_tus "")
  set(index 0)
  foreach(src IN LISTS ARGN)
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${abs}")
      message(FATAL_ERROR "${name}: kernel source ${src} does not exist (${abs})")
    endif()
    if(abs MATCHES "\\.(h|hh|hpp|hxx|inc|inl)$")
      continue()  # headers: found through the sources' includes
    endif()
    get_filename_component(dir "${abs}" DIRECTORY)
    get_filename_component(base "${abs}" NAME_WE)
    string(MAKE_C_IDENTIFIER "${base}" base)
    set(stem "${index}_${base}")
    math(EXPR index "${index} + 1")
    set(outputs "${gen}/${stem}.rewritten.cpp" "${gen}/${stem}.device.cpp" "${gen}/${stem}.kernels")
    set(launch_headers "")
    if(NOT namespace STREQUAL "")
      list(APPEND outputs "${gen}/${stem}.host.cpp")
      # aclrtlaunch_<kernel>.h for ACLRT_LAUNCH_KERNEL users: named by the kernels, so
      # not declared as outputs; the library's users compile after it runs.
      set(launch_headers "--launch-headers=${gen}/include")
    endif()
    file(RELATIVE_PATH shown "${CMAKE_SOURCE_DIR}" "${abs}")
    add_custom_command(
      OUTPUT ${outputs}
      COMMAND "${scan}" source "--source=${abs}" "--output-dir=${gen}" "--stem=${stem}"
              "--namespace=${namespace}" ${launch_headers}
      DEPENDS "${abs}" "${scan}"
      COMMENT "AscendC ${name}: kernels and <<<>>> launches of ${shown}"
      VERBATIM)
    # The source's own directory for its #include "..." (it is compiled from ${gen}).
    set_source_files_properties("${gen}/${stem}.device.cpp" PROPERTIES COMPILE_OPTIONS "-iquote${dir}")
    list(APPEND device_tus "${gen}/${stem}.device.cpp")
    if(NOT namespace STREQUAL "")
      set_source_files_properties("${gen}/${stem}.host.cpp" PROPERTIES COMPILE_OPTIONS "-iquote${dir}")
      list(APPEND host_tus "${gen}/${stem}.host.cpp")
    endif()
  endforeach()
  if(device_tus STREQUAL "")
    message(FATAL_ERROR "${name}: no kernel sources given")
  endif()
  set(${prefix}_device "${device_tus}" PARENT_SCOPE)
  set(${prefix}_host "${host_tus}" PARENT_SCOPE)
  set(${prefix}_dir "${gen}" PARENT_SCOPE)
endfunction()

# Compile and link settings of a kernel object (a MODULE library).
function(_npud_ascendc_device_target target)
  _npud_ascendc_config(NPUD_ASCENDC_INCLUDE_DIR include_dir)
  _npud_ascendc_config(NPUD_ASCENDC_ACL_INCLUDE_DIR acl_include_dir)
  _npud_ascendc_config(NPUD_ASCENDC_NPU_ARCH arch)
  _npud_ascendc_config(NPUD_ASCENDC_KERNEL_COMPILE_OPTIONS options)
  target_compile_features(${target} PRIVATE cxx_std_17)
  target_include_directories(${target} PRIVATE "${include_dir}" "${acl_include_dir}")
  target_compile_definitions(${target} PRIVATE "__NPU_ARCH__=${arch}")
  # -O2 after the build type's flags; sections + --gc-sections drop the host wrappers
  # (hidden, unused in the kernel object) and with them any call into the ACL runtime, so
  # -z defs can insist that the object needs nothing but the C/C++ runtime.
  target_compile_options(${target} PRIVATE ${options} -O2 -ffunction-sections -fdata-sections)
  target_link_options(${target} PRIVATE "LINKER:--gc-sections" "LINKER:-z,defs")
  set_target_properties(${target} PROPERTIES
    POSITION_INDEPENDENT_CODE ON
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    NPUD_ASCENDC_DEVICE_TARGET "${target}")
endfunction()

# ---------------------------------------------------------------------------------------
# ascendc_library(<name> STATIC|SHARED|OBJECT <sources...>)
function(ascendc_library name type)
  if(NOT type MATCHES "^(STATIC|SHARED|OBJECT)$")
    message(FATAL_ERROR "ascendc_library(${name} ${type} ...): the second argument is the library "
                        "type, STATIC, SHARED or OBJECT")
  endif()
  if(TARGET "${name}")
    message(FATAL_ERROR "ascendc_library(${name} ...): a target ${name} already exists")
  endif()
  _npud_ascendc_config(NPUD_ASCENDC_CMAKE_DIR cmake_dir)
  _npud_ascendc_config(NPUD_ASCENDC_INCLUDE_DIR include_dir)
  _npud_ascendc_config(NPUD_ASCENDC_ACL_INCLUDE_DIR acl_include_dir)
  _npud_ascendc_config(NPUD_ASCENDC_ACL_LIBRARY acl_library)
  _npud_ascendc_config(NPUD_ASCENDC_NPU_ARCH arch)
  _npud_ascendc_config(NPUD_ASCENDC_KERNEL_COMPILE_OPTIONS kernel_options)

  # A C++ namespace unique to this target (also across projects linked together).
  string(MAKE_C_IDENTIFIER "${name}" id)
  string(MD5 hash "${CMAKE_CURRENT_BINARY_DIR}/${name}")
  string(SUBSTRING "${hash}" 0 10 hash)
  set(namespace "npud_ascendc_lib_${id}_${hash}")

  _npud_ascendc_sources(${name} ${namespace} gen ${ARGN})

  # The kernel object.
  set(device ${name}_device)
  add_library(${device} MODULE ${gen_device})
  _npud_ascendc_device_target(${device})
  set_target_properties(${device} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY "$<1:${gen_dir}>"
    PREFIX "lib"
    OUTPUT_NAME "${name}_device")

  # Its bytes, as a C++ source of the host library.
  set(embedded "${gen_dir}/${name}_kernel_object.cpp")
  add_custom_command(
    OUTPUT "${embedded}"
    COMMAND "${CMAKE_COMMAND}" "-DNPUD_OBJECT=$<TARGET_FILE:${device}>" "-DNPUD_OUTPUT=${embedded}"
            "-DNPUD_NAMESPACE=${namespace}" "-DNPUD_LIBRARY=${name}"
            -P "${cmake_dir}/npud_ascendc_embed.cmake"
    DEPENDS ${device} "${cmake_dir}/npud_ascendc_embed.cmake"
    COMMENT "AscendC ${name}: embedding the kernel object"
    VERBATIM)

  # The host library.
  add_library(${name} ${type} ${gen_host} "${embedded}")
  set(host_options "")
  foreach(option IN LISTS kernel_options)
    if(NOT option MATCHES "^-fvisibility")
      list(APPEND host_options "${option}")
    endif()
  endforeach()
  target_compile_features(${name} PRIVATE cxx_std_17)
  target_compile_options(${name} PRIVATE ${host_options})
  target_compile_definitions(${name} PRIVATE "__NPU_ARCH__=${arch}")
  # aclrtlaunch_<kernel>.h (ACLRT_LAUNCH_KERNEL), written by the source pass.
  target_include_directories(${name} PUBLIC "${acl_include_dir}" "${include_dir}" "${gen_dir}/include")
  target_link_libraries(${name} PUBLIC "${acl_library}")
  set_target_properties(${name} PROPERTIES
    POSITION_INDEPENDENT_CODE ON
    VISIBILITY_INLINES_HIDDEN ON
    NPUD_ASCENDC_DEVICE_TARGET "${device}"
    NPUD_ASCENDC_HOST_TARGET "${name}")

  if(type STREQUAL "OBJECT")
    install(TARGETS ${name} OBJECTS DESTINATION "single_objects/${name}")
  else()
    install(TARGETS ${name} ARCHIVE DESTINATION lib LIBRARY DESTINATION lib)
  endif()
endfunction()

# ascendc_fatbin_library(<name> <sources...>)
function(ascendc_fatbin_library name)
  if(TARGET "${name}")
    message(FATAL_ERROR "ascendc_fatbin_library(${name} ...): a target ${name} already exists")
  endif()
  _npud_ascendc_sources(${name} "" gen ${ARGN})
  add_library(${name} MODULE ${gen_device})
  _npud_ascendc_device_target(${name})
  get_filename_component(prefix "${CMAKE_INSTALL_PREFIX}" ABSOLUTE BASE_DIR "${CMAKE_BINARY_DIR}")
  set_target_properties(${name} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY "$<1:${prefix}/fatbin/${name}>"
    PREFIX ""
    SUFFIX ".o"
    OUTPUT_NAME "${name}")
  # The upstream helper target name, for projects that depend on it.
  add_custom_target(${name}_fatbin_obj ALL DEPENDS ${name})
  install(FILES "$<TARGET_FILE:${name}>" DESTINATION "fatbin/${name}")
endfunction()

# ascendc_compile_options / _definitions / _include_directories: forward to the kernel
# object (PRIVATE; nothing links to it) and the host library (with the given scope).
function(_npud_ascendc_forward kind target)
  if(NOT TARGET "${target}")
    message(FATAL_ERROR "ascendc_${kind}(${target} ...): no target ${target}")
  endif()
  set(args ${ARGN})
  set(scope PRIVATE)
  list(LENGTH args count)
  if(count GREATER 0)
    list(GET args 0 first)
    if(first MATCHES "^(PRIVATE|PUBLIC|INTERFACE)$")
      set(scope ${first})
      list(REMOVE_AT args 0)
    endif()
  endif()
  set(common "")
  set(host_only "")
  set(in_host_part FALSE)
  foreach(arg IN LISTS args)
    if(arg STREQUAL "-forward-options-to-host-compiler")
      set(in_host_part TRUE)
    elseif(in_host_part)
      list(APPEND host_only "${arg}")
    else()
      list(APPEND common "${arg}")
    endif()
  endforeach()
  get_target_property(device ${target} NPUD_ASCENDC_DEVICE_TARGET)
  get_target_property(host ${target} NPUD_ASCENDC_HOST_TARGET)
  if(NOT device AND NOT host)
    set(host "${target}")  # not an AscendC target: behave like the plain command
  endif()
  if(device AND NOT scope STREQUAL "INTERFACE" AND NOT common STREQUAL "")
    if(kind STREQUAL "compile_options")
      target_compile_options(${device} PRIVATE ${common})
    elseif(kind STREQUAL "compile_definitions")
      target_compile_definitions(${device} PRIVATE ${common})
    else()
      target_include_directories(${device} PRIVATE ${common})
    endif()
  endif()
  if(host AND NOT "${common}${host_only}" STREQUAL "")
    if(kind STREQUAL "compile_options")
      target_compile_options(${host} ${scope} ${common} ${host_only})
    elseif(kind STREQUAL "compile_definitions")
      target_compile_definitions(${host} ${scope} ${common} ${host_only})
    else()
      target_include_directories(${host} ${scope} ${common} ${host_only})
    endif()
  endif()
endfunction()

function(ascendc_compile_options target)
  _npud_ascendc_forward(compile_options ${target} ${ARGN})
endfunction()

function(ascendc_compile_definitions target)
  _npud_ascendc_forward(compile_definitions ${target} ${ARGN})
endfunction()

function(ascendc_include_directories target)
  _npud_ascendc_forward(include_directories ${target} ${ARGN})
endfunction()
