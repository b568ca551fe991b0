// device_variables.h: `__gm__` variables of a kernel source, in the kernel object.
//
// On the NPU such a variable lives in the binary's device image: kernels use it, and
// the host reads and writes it with aclrtMemcpyTo/FromSymbol. Here kernels run in
// another process than the host code, so the variable must live in device memory
// that both npud and the kernel host see. The source pass of npud-ascendc-scan
// (variable_markers.h) wraps each definition
//
//   NPUD_GM_BEGIN(w) __gm__ float w[16] = {...}; NPUD_GM_END(w);
//
// In the kernel object the definition becomes the variable's initial value, and `w`
// a (file-local) reference to a copy of it in a mapping of its own (npud_kernel_abi.h,
// npud_kernel_variables), which the loader replaces with device memory. The host
// half (host_launch.h) registers `&w` with the runtime instead.
#ifndef NPUD_ASCENDC_DEVICE_VARIABLES_H_
#define NPUD_ASCENDC_DEVICE_VARIABLES_H_

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "npud_ascendc/visibility.h"
#include "npud_kernel_abi.h"

namespace npud::ascendc::device_variables {

// Written only by static initialisers (dlopen runs them on one thread), read after.
NPUD_ASCENDC_HIDDEN inline std::vector<NpudVariableInfo>& Variables() {
  static std::vector<NpudVariableInfo> variables;
  return variables;
}

// A page-aligned mapping holding a copy of the `size` bytes at `initial`.
NPUD_ASCENDC_HIDDEN inline void* Place(const void* initial, std::size_t size, const char* name) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t bytes = (size + page - 1) / page * page;
  void* place = mmap(nullptr, bytes == 0 ? page : bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (place == MAP_FAILED) {
    std::fprintf(stderr, "npud ascendc: no memory for device variable '%s'\n", name);
    std::abort();
  }
  std::memcpy(place, initial, size);
  Variables().push_back(NpudVariableInfo{name, place, size});
  return place;
}

template <class T>
T& Bind(T& initial, const char* name) {
  return *static_cast<T*>(Place(&initial, sizeof(T), name));
}

}  // namespace npud::ascendc::device_variables

// Emitted (and exported) only by objects that have device variables: NPUD_GM_END
// references it.
extern "C" inline __attribute__((visibility("default"))) const NpudVariableInfo*
npud_kernel_variables(size_t* count) {
  const std::vector<NpudVariableInfo>& variables = ::npud::ascendc::device_variables::Variables();
  *count = variables.size();
  return variables.data();
}

#define NPUD_GM_BEGIN(name) namespace npud_gm_initial_##name {
#define NPUD_GM_END(name)                                                         \
  }                                                                               \
  __attribute__((used)) static const NpudKernelVariablesFn npud_gm_table_##name = \
      &npud_kernel_variables;                                                     \
  static auto& name = ::npud::ascendc::device_variables::Bind(npud_gm_initial_##name::name, #name)

#endif  // NPUD_ASCENDC_DEVICE_VARIABLES_H_
