// npud_kernel_register.h: turning `extern "C" __global__` kernels into the entries of a
// kernel shared object's npud_kernel_table (see npud_kernel_abi.h).
//
// After a kernel source, at global namespace scope, once per kernel, the build tool
// emits (the trailing semicolon is required):
//
//   NPUD_KERNEL_REGISTER(add_custom);
//   NPUD_KERNEL_REGISTER_AS(my_cube_kernel, NPUD_CORE_TYPE_CUBE);   // other kernel types
//
// Each line defines, with internal linkage, the kernel's NpudKernelEntry and a static
// registrar whose constructor appends {name, entry, packed args size, type} to this
// shared object's registry when the object is loaded (dlopen runs it). Nothing else is
// needed: every translation unit that includes this header (kernel_operator.h does)
// also emits npud_kernel_table as a weak, default-visibility C function, and the
// linker keeps one copy per shared object. A kernel object without registrations thus
// still exports an empty table. Define NPUD_KERNEL_NO_TABLE before including
// kernel_operator.h in a translation unit that must not export it (e.g. host code
// that only wants the AscendC types). NPUD_KERNEL_TABLE_DEFINE(); is accepted and
// does nothing.
//
// The entry checks ctx (non-null, our ABI version) and args_size (the kernel's packed
// size), installs the block's context on the calling thread (block_idx, block_num,
// GetBlockIdx()...), unpacks the arguments, runs the kernel and restores the thread's
// previous state, also when a trap unwinds the kernel.
#ifndef NPUD_KERNEL_REGISTER_H_
#define NPUD_KERNEL_REGISTER_H_

#include <array>
#include <cstddef>
#include <cstdint>

#include "npud_ascendc/block_context.h"
#include "npud_ascendc/visibility.h"
#include "npud_kernel_abi.h"
#include "npud_kernel_args.h"

namespace npud::kernel::internal {

struct RegistryNode {
  NpudKernelInfo info;
  // The kernel's parameters: count, and their offsets and sizes in the
  // packed arguments (for launches that pass one pointer per parameter).
  uint32_t param_count;
  const uint32_t* param_offsets;
  const uint32_t* param_sizes;
  RegistryNode* next;
};

// Offsets and sizes of a kernel's parameters, as constants of the program.
template <class... A>
struct NPUD_ASCENDC_HIDDEN ParamLayout {
  static constexpr std::array<uint32_t, sizeof...(A) + 1> Offsets() {
    std::array<uint32_t, sizeof...(A) + 1> out{};
    if constexpr (sizeof...(A) > 0) {
      constexpr auto offsets = ArgLayout<A...>::Offsets();
      for (std::size_t i = 0; i < sizeof...(A); ++i) out[i] = static_cast<uint32_t>(offsets[i]);
    }
    return out;
  }
  static constexpr std::array<uint32_t, sizeof...(A) + 1> kOffsets = Offsets();
  static constexpr std::array<uint32_t, sizeof...(A) + 1> kSizes = {
      static_cast<uint32_t>(sizeof(A))..., 0};
};

template <class... A>
constexpr const ParamLayout<A...>* ParamsOf(void (*)(A...)) {
  return nullptr;
}

// Kernels registered in this shared object, in load order. Written only by static
// initialisers (dlopen runs them on one thread), read after.
struct Registry {
  RegistryNode* head = nullptr;
  RegistryNode** tail = &head;
};
NPUD_ASCENDC_HIDDEN inline Registry& GetRegistry() {
  static Registry registry;
  return registry;
}

// A static object per kernel; it must outlive the shared object's table users.
class Registrar {
 public:
  template <class... A>
  Registrar(const char* name, NpudKernelEntry entry, void (*kernel)(A...), uint32_t kernel_type) {
    (void)kernel;
    node_.info =
        NpudKernelInfo{name, entry, static_cast<uint32_t>(ArgLayout<A...>::Size()), kernel_type};
    node_.param_count = sizeof...(A);
    node_.param_offsets = ParamLayout<A...>::kOffsets.data();
    node_.param_sizes = ParamLayout<A...>::kSizes.data();
    node_.next = nullptr;
    Registry& registry = GetRegistry();
    *registry.tail = &node_;
    registry.tail = &node_.next;
  }
  Registrar(const Registrar&) = delete;
  Registrar& operator=(const Registrar&) = delete;

 private:
  RegistryNode node_;
};

// The registry as an array, built once on first use (thread-safe), freed when the
// shared object is unloaded. (Own storage type rather than std::vector, whose
// instantiation for the ABI struct would otherwise be exported.)
class TableStorage {
 public:
  TableStorage() {
    for (const RegistryNode* n = GetRegistry().head; n != nullptr; n = n->next) ++count_;
    data_ = new NpudKernelInfo[count_ == 0 ? 1 : count_];
    std::size_t i = 0;
    for (const RegistryNode* n = GetRegistry().head; n != nullptr; n = n->next)
      data_[i++] = n->info;
  }
  ~TableStorage() { delete[] data_; }
  TableStorage(const TableStorage&) = delete;
  TableStorage& operator=(const TableStorage&) = delete;

  const NpudKernelInfo* data() const { return data_; }
  std::size_t count() const { return count_; }

 private:
  NpudKernelInfo* data_ = nullptr;
  std::size_t count_ = 0;
};

// The parameter layout of the kernel at `index` of the table; false if none.
NPUD_ASCENDC_HIDDEN inline bool Params(std::size_t index, std::size_t* count,
                                       const uint32_t** offsets, const uint32_t** sizes) {
  std::size_t i = 0;
  for (const RegistryNode* n = GetRegistry().head; n != nullptr; n = n->next, ++i) {
    if (i != index) continue;
    *count = n->param_count;
    *offsets = n->param_offsets;
    *sizes = n->param_sizes;
    return true;
  }
  return false;
}

NPUD_ASCENDC_HIDDEN inline const NpudKernelInfo* Table(std::size_t* count) {
  static const TableStorage table;
  if (count != nullptr) *count = table.count();
  return table.data();
}

template <class... A>
int RunEntry(const NpudBlockContext* ctx, const void* args, std::size_t args_size,
             void (*kernel)(A...)) {
  if (ctx == nullptr || ctx->abi_version != NPUD_KERNEL_ABI_VERSION)
    return NPUD_KERNEL_ENTRY_BAD_CONTEXT;
  if (args_size != ArgLayout<A...>::Size() || (args_size != 0 && args == nullptr)) {
    return NPUD_KERNEL_ENTRY_BAD_ARGS;
  }
  const ::npud::ascendc::BlockScope scope(ctx);
  Invoke(kernel, args);
  return NPUD_KERNEL_ENTRY_OK;
}

}  // namespace npud::kernel::internal

#ifndef NPUD_KERNEL_NO_TABLE
extern "C" inline __attribute__((used, visibility("default"))) const NpudKernelInfo*
npud_kernel_table(size_t* count) {
  return ::npud::kernel::internal::Table(count);
}

extern "C" inline __attribute__((used, visibility("default"))) int npud_kernel_params(
    size_t index, size_t* count, const uint32_t** offsets, const uint32_t** sizes) {
  return ::npud::kernel::internal::Params(index, count, offsets, sizes) ? 1 : 0;
}
#endif

#define NPUD_KERNEL_REGISTER(name) NPUD_KERNEL_REGISTER_AS(name, NPUD_CORE_TYPE_VECTOR)

#define NPUD_KERNEL_REGISTER_AS(name, kernel_type)                                                \
  namespace {                                                                                     \
  int npud_kernel_entry_##name(const NpudBlockContext* ctx, const void* args, size_t args_size) { \
    return ::npud::kernel::internal::RunEntry(ctx, args, args_size, &name);                       \
  }                                                                                               \
  const ::npud::kernel::internal::Registrar npud_kernel_registrar_##name(                         \
      #name, &npud_kernel_entry_##name, &name, (kernel_type));                                    \
  }                                                                                               \
  static_assert(true, "NPUD_KERNEL_REGISTER(" #name ") must be followed by a semicolon")

#define NPUD_KERNEL_TABLE_DEFINE() static_assert(true, "npud_kernel_table is defined by the header")

#endif  // NPUD_KERNEL_REGISTER_H_
