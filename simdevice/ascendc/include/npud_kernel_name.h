// npud_kernel_name.h: the name a kernel is registered and looked up by when it is
// launched with <<<>>>.
//
// Both halves of a kernel source (the kernel object and the host library) are
// compiled from the same text by the same compiler, so the compiler's own spelling
// of a kernel, taken from __PRETTY_FUNCTION__ of a template over the kernel's
// address, is the same in both: `add_custom` for a plain kernel, `ns::scale` in a
// namespace, `add_custom<2048>` or `add<float, 16>` for an instantiation of a
// template kernel. That is what lets template kernels, kernels in namespaces and
// kernels named through a host function template's parameters be launched: the
// launch itself names the instantiation, and nobody has to spell it in advance.
#ifndef NPUD_KERNEL_NAME_H_
#define NPUD_KERNEL_NAME_H_

#include <string>

namespace npud::kernel {

namespace internal {

// `... [with auto F = <name>]` -> `<name>`; the whole text if it has another shape.
inline std::string NameFromSignature(const char* signature) {
  const std::string text = signature;
  const std::string marker = "F = ";
  const std::size_t start = text.find(marker);
  const std::size_t end = text.rfind(']');
  if (start == std::string::npos || end == std::string::npos || end < start) return text;
  return text.substr(start + marker.size(), end - start - marker.size());
}

}  // namespace internal

// The kernel's name, computed once per kernel and process; the pointer stays valid
// until the program (or the kernel object) is unloaded.
template <auto F>
__attribute__((visibility("hidden"))) const char* KernelNameOf() {
  static const std::string name = internal::NameFromSignature(__PRETTY_FUNCTION__);
  return name.c_str();
}

}  // namespace npud::kernel

#endif  // NPUD_KERNEL_NAME_H_
