# Compile options for AscendC kernel sources built into npud kernel shared
# objects against simdevice/ascendc/include (installed as
# tikcpp/ascendc_kernel_cmake/include). Used by the ascendc_cpu target and meant to be
# included by the installed ascendc.cmake, so both build kernels the same way.
#
#   -fPIC                        kernels are shared objects
#   -fvisibility=hidden          the kernel object exports only npud_kernel_table (the
#   -fvisibility-inlines-hidden  headers mark that one explicitly); user kernels, helpers
#                                and inline functions stay private to the object, so
#                                objects loaded side by side never bind to each other
#   -fexceptions                 trap() unwinds the block with a C++ exception thrown by
#                                the executor through kernel frames (npud_kernel_abi.h);
#                                never build kernels with -fno-exceptions
#   -fno-strict-aliasing         kernels reinterpret GM and UB bytes freely
#                                (ReinterpretCast, (__gm__ half*)x, index bits)
#   -Wno-unused-parameter        upstream sample kernels keep unused parameters
#                                (Compute(int32_t progress)); matters under -Wextra
#
# Kernel sources are C++17: set CXX_STANDARD 17 (or -std=c++17).
set(NPUD_ASCENDC_KERNEL_CXX_STANDARD 17)
set(NPUD_ASCENDC_KERNEL_COMPILE_OPTIONS
    -fPIC
    -fvisibility=hidden
    -fvisibility-inlines-hidden
    -fexceptions
    -fno-strict-aliasing
    -Wno-unused-parameter)
