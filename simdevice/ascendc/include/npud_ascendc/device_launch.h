// device_launch.h: what a `<<<>>>` launch compiles to inside a kernel object.
//
// npud's ascendc.cmake compiles each kernel source twice: once into the kernel object
// (the "device" build, loaded by the npud executor) and once into the host library
// (npud_ascendc/host_launch.h). The source's `k<<<blocks, l2ctrl, stream>>>(args...)`
// launches are rewritten to `::npud_ascendc_launch<(k)>("k", blocks, l2ctrl, stream)(args...)`
// in both. In the device build the host wrappers holding those launches are dead code
// (hidden, never called, dropped by --gc-sections), so the launch only has to compile,
// type-check like the host one, and never reference the ACL runtime. It does one more
// thing: it registers the kernel it names (npud_kernel_register.h, LaunchedKernel), so
// that every kernel and template instantiation the source launches is in the kernel
// object's table under the name the host half looks it up by. Launching a kernel from
// device code is not supported: the call returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
#ifndef NPUD_ASCENDC_DEVICE_LAUNCH_H_
#define NPUD_ASCENDC_DEVICE_LAUNCH_H_

#include <cstdint>

#include "npud_ascendc/device_variables.h"
#include "npud_kernel_register.h"

// Headers that behave differently in the kernel object test this (asc_printf.h).
#define NPUD_ASCENDC_DEVICE_HALF 1

namespace npud::ascendc::device_launch {

// ACL_ERROR_RT_FEATURE_NOT_SUPPORT, without including the ACL headers.
inline constexpr std::uint32_t kLaunchNotSupported = 207000;

template <class... P>
class UnsupportedLaunch {
 public:
  template <class... A>
  std::uint32_t operator()(A&&... /*args*/) const {
    static_assert(sizeof...(A) == sizeof...(P),
                  "kernel launch: argument count differs from the kernel's");
    return kLaunchNotSupported;
  }
};

}  // namespace npud::ascendc::device_launch

namespace npud::ascendc::device_launch {

template <class... P>
UnsupportedLaunch<P...> LaunchOf(void (*)(P...)) {
  return {};
}

}  // namespace npud::ascendc::device_launch

// The return type is spelled out: a deduced one would make g++ instantiate the body
// (and register the kernel) for launches in discarded `if constexpr` branches too,
// without instantiating the kernel they name.
template <auto kKernel, class L2>
static inline decltype(::npud::ascendc::device_launch::LaunchOf(kKernel)) npud_ascendc_launch(
    const char* /*spelling*/, std::uint32_t /*block_dim*/, const L2& /*l2ctrl*/,
    void* /*stream*/ = nullptr) {
  static_cast<void>(&::npud::kernel::internal::LaunchedKernel<kKernel>::registrar);
  return ::npud::ascendc::device_launch::LaunchOf(kKernel);
}

#endif  // NPUD_ASCENDC_DEVICE_LAUNCH_H_
