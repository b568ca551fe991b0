# tikicpulib-config.cmake: CANN's CPU-debug package (find_package(tikicpulib)), for
# the projects that build their kernels as a shared library linked to
# tikicpulib::${SOC_VERSION} and run them with ICPU_RUN_KF (tikicpulib.h). Installed
# as <root>/tools/tikicpulib/lib/cmake/, where those projects look
# (CMAKE_PREFIX_PATH); NPUD_TIKICPULIB_INCLUDE_DIR overrides where the headers are.
#
# Each tikicpulib::<soc> is an INTERFACE target: npud's AscendC headers, and
# NPUD_ASCENDC_SHARED_STATE so that the kernel library and the program that launches
# it share one block state (npud_ascendc/visibility.h), ASCENDC_CPU_DEBUG and
# __CCE_KT_TEST__ (the macros CANN's CPU-debug builds define), threads; for the
# Atlas inference SoCs (310P) __NPU_ARCH__ 2002. Targets exist for CANN's SoC names
# and for ${SOC_VERSION} when it is set before find_package.

if(NOT DEFINED NPUD_TIKICPULIB_INCLUDE_DIR)
  get_filename_component(NPUD_TIKICPULIB_INCLUDE_DIR
    "${CMAKE_CURRENT_LIST_DIR}/../../../../tikcpp/ascendc_kernel_cmake/include" ABSOLUTE)
endif()
if(NOT EXISTS "${NPUD_TIKICPULIB_INCLUDE_DIR}/tikicpulib.h")
  set(tikicpulib_FOUND FALSE)
  set(tikicpulib_NOT_FOUND_MESSAGE "no tikicpulib.h in ${NPUD_TIKICPULIB_INCLUDE_DIR}")
  return()
endif()

include(CMakeFindDependencyMacro)
find_dependency(Threads)

set(_npud_tikicpulib_socs
  Ascend910B1 Ascend910B2 Ascend910B2C Ascend910B3 Ascend910B4 Ascend910B4-1
  Ascend910_9391 Ascend910_9381 Ascend910_9372 Ascend910_9392 Ascend910_9382 Ascend910_9362
  Ascend310P1 Ascend310P3 Ascend310P5 Ascend310P7 ascend910 ascend910b ascend310p)
if(DEFINED SOC_VERSION)
  list(APPEND _npud_tikicpulib_socs "${SOC_VERSION}")
endif()
foreach(_soc IN LISTS _npud_tikicpulib_socs)
  string(TOLOWER "${_soc}" _lower)
  foreach(_name IN ITEMS "${_soc}" "${_lower}")
    if(TARGET "tikicpulib::${_name}")
      continue()
    endif()
    set(_defs NPUD_ASCENDC_SHARED_STATE ASCENDC_CPU_DEBUG=1 __CCE_KT_TEST__=1)
    if(_lower MATCHES "^ascend310p")
      list(APPEND _defs __NPU_ARCH__=2002)
    endif()
    add_library("tikicpulib::${_name}" INTERFACE IMPORTED)
    set_target_properties("tikicpulib::${_name}" PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES "${NPUD_TIKICPULIB_INCLUDE_DIR}"
      INTERFACE_COMPILE_DEFINITIONS "${_defs}"
      INTERFACE_LINK_LIBRARIES Threads::Threads)
  endforeach()
endforeach()
set(tikicpulib_FOUND TRUE)
