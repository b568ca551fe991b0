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
// Kernels launched with <<<>>> in the source register themselves: the device build's
// launch (device_launch.h) instantiates LaunchedKernel<&kernel>, whose registrar
// names the kernel as npud_kernel_name.h does. This is how template kernels (one
// entry per instantiation launched) and kernels in namespaces get into the table. A
// kernel registered both ways is listed once, as registered by name. Their
// core type comes from NPUD_KERNEL_CORE_TYPE("base name", type); lines, which the
// build tool emits for the cube and mix kernels it cannot register by name.
//
// The entry checks ctx (non-null, our ABI version) and args_size (the kernel's packed
// size), installs the block's context on the calling thread (block_idx, block_num,
// GetBlockIdx()...), unpacks the arguments, runs the kernel and restores the thread's
// previous state, also when a trap unwinds the kernel. A mix kernel's block runs as
// its group of cores instead (mix_group.h): one cube and two vector cores, or one of
// each for the kernels an NPUD_KERNEL_MIX_VECTORS("base name", 1); line names (the
// build tool emits it for KERNEL_TYPE_MIX_AIC_1_1 and __mix__(1, 1) kernels; the
// kernel table still says NPUD_CORE_TYPE_MIX, so executors need not know).
#ifndef NPUD_KERNEL_REGISTER_H_
#define NPUD_KERNEL_REGISTER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "npud_ascendc/block_context.h"
#include "npud_ascendc/mix_group.h"
#include "npud_ascendc/visibility.h"
#include "npud_kernel_abi.h"
#include "npud_kernel_args.h"
#include "npud_kernel_name.h"

namespace npud::kernel::internal {

struct RegistryNode {
  NpudKernelInfo info;
  // The kernel's parameters: count, and their offsets and sizes in the
  // packed arguments (for launches that pass one pointer per parameter).
  uint32_t param_count;
  const uint32_t* param_offsets;
  const uint32_t* param_sizes;
  // Registered by a launch: the type comes from a core type line, if any.
  bool type_from_hint;
  RegistryNode* next;
};

// NPUD_KERNEL_CORE_TYPE lines: the core type of the kernels named `name`, or of the
// instantiations of the template `name`.
struct TypeHint {
  const char* name;
  uint32_t kernel_type;
  TypeHint* next;
};

// NPUD_KERNEL_MIX_VECTORS lines: the vector cores per group of the mix kernels named
// `name` (or instantiations of the template `name`).
struct MixVectors {
  const char* name;
  uint32_t vectors;
  MixVectors* next;
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
  TypeHint* hints = nullptr;
  MixVectors* mix_vectors = nullptr;
};
NPUD_ASCENDC_HIDDEN inline Registry& GetRegistry() {
  static Registry registry;
  return registry;
}

// A static object per kernel; it must outlive the shared object's table users.
class Registrar {
 public:
  template <class... A>
  Registrar(const char* name, NpudKernelEntry entry, void (*kernel)(A...), uint32_t kernel_type,
            bool type_from_hint = false) {
    (void)kernel;
    node_.info =
        NpudKernelInfo{name, entry, static_cast<uint32_t>(ArgLayout<A...>::Size()), kernel_type};
    node_.param_count = sizeof...(A);
    node_.param_offsets = ParamLayout<A...>::kOffsets.data();
    node_.param_sizes = ParamLayout<A...>::kSizes.data();
    node_.type_from_hint = type_from_hint;
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

// A NPUD_KERNEL_CORE_TYPE line; static, like a Registrar.
class TypeHintRegistrar {
 public:
  TypeHintRegistrar(const char* name, uint32_t kernel_type) {
    hint_ = TypeHint{name, kernel_type, GetRegistry().hints};
    GetRegistry().hints = &hint_;
  }
  TypeHintRegistrar(const TypeHintRegistrar&) = delete;
  TypeHintRegistrar& operator=(const TypeHintRegistrar&) = delete;

 private:
  TypeHint hint_;
};

// A NPUD_KERNEL_MIX_VECTORS line; static, like a Registrar.
class MixVectorsRegistrar {
 public:
  MixVectorsRegistrar(const char* name, uint32_t vectors) {
    entry_ = MixVectors{name, vectors, GetRegistry().mix_vectors};
    GetRegistry().mix_vectors = &entry_;
  }
  MixVectorsRegistrar(const MixVectorsRegistrar&) = delete;
  MixVectorsRegistrar& operator=(const MixVectorsRegistrar&) = delete;

 private:
  MixVectors entry_;
};

// Whether `kernel` ("ns::add<float, 8>") is `hint` ("add") or an instantiation of it:
// its last component, without template arguments, is the hint.
inline bool NamesHint(const char* kernel, const char* hint) {
  const char* end = std::strchr(kernel, '<');
  if (end == nullptr) end = kernel + std::strlen(kernel);
  const char* begin = kernel;
  for (const char* p = kernel; p + 1 < end; ++p) {
    if (p[0] == ':' && p[1] == ':') begin = p + 2;
  }
  const std::size_t length = static_cast<std::size_t>(end - begin);
  return std::strlen(hint) == length && std::strncmp(begin, hint, length) == 0;
}

// The registry as arrays, built once on first use (thread-safe), freed when the
// shared object is unloaded: one entry per name, the registrations by name in their
// order, then those of launches, with the core type lines applied. (Own storage rather than
// std::vector, whose instantiation for the ABI struct would otherwise be exported.)
class TableStorage {
 public:
  TableStorage() {
    std::size_t nodes = 0;
    for (const RegistryNode* n = GetRegistry().head; n != nullptr; n = n->next) ++nodes;
    data_ = new NpudKernelInfo[nodes == 0 ? 1 : nodes];
    nodes_ = new const RegistryNode*[nodes == 0 ? 1 : nodes];
    // Registrations by name first: they carry the kernel's core type, and the
    // initialisation order of a launch's registrar is not defined.
    for (const bool by_launch : {false, true}) {
      for (const RegistryNode* n = GetRegistry().head; n != nullptr; n = n->next) {
        if (n->type_from_hint != by_launch || Contains(n->info.name)) continue;
        NpudKernelInfo info = n->info;
        if (by_launch) {
          for (const TypeHint* h = GetRegistry().hints; h != nullptr; h = h->next) {
            if (NamesHint(info.name, h->name)) info.kernel_type = h->kernel_type;
          }
        }
        nodes_[count_] = n;
        data_[count_++] = info;
      }
    }
  }
  ~TableStorage() {
    delete[] data_;
    delete[] nodes_;
  }
  TableStorage(const TableStorage&) = delete;
  TableStorage& operator=(const TableStorage&) = delete;

  const NpudKernelInfo* data() const { return data_; }
  std::size_t count() const { return count_; }
  const RegistryNode* node(std::size_t index) const { return nodes_[index]; }

 private:
  bool Contains(const char* name) const {
    for (std::size_t i = 0; i < count_; ++i) {
      if (std::strcmp(data_[i].name, name) == 0) return true;
    }
    return false;
  }

  NpudKernelInfo* data_ = nullptr;
  const RegistryNode** nodes_ = nullptr;
  std::size_t count_ = 0;
};

NPUD_ASCENDC_HIDDEN inline const TableStorage& GetTable() {
  static const TableStorage table;
  return table;
}

// The parameter layout of the kernel at `index` of the table; false if none.
NPUD_ASCENDC_HIDDEN inline bool Params(std::size_t index, std::size_t* count,
                                       const uint32_t** offsets, const uint32_t** sizes) {
  const TableStorage& table = GetTable();
  if (index >= table.count()) return false;
  const RegistryNode* n = table.node(index);
  *count = n->param_count;
  *offsets = n->param_offsets;
  *sizes = n->param_sizes;
  return true;
}

NPUD_ASCENDC_HIDDEN inline const NpudKernelInfo* Table(std::size_t* count) {
  const TableStorage& table = GetTable();
  if (count != nullptr) *count = table.count();
  return table.data();
}

// The vector cores per group of the mix kernel `name`: 2 unless a line says 1.
inline uint32_t MixVectorCoresOf(const char* name) {
  for (const MixVectors* m = GetRegistry().mix_vectors; m != nullptr; m = m->next) {
    if (NamesHint(name, m->name)) return m->vectors;
  }
  return ::npud::ascendc::MixGroup::kVectorCores;
}

template <class... A>
int RunEntry(const NpudBlockContext* ctx, const void* args, std::size_t args_size,
             void (*kernel)(A...), const char* name) {
  if (ctx == nullptr || ctx->abi_version != NPUD_KERNEL_ABI_VERSION)
    return NPUD_KERNEL_ENTRY_BAD_CONTEXT;
  if (args_size != ArgLayout<A...>::Size() || (args_size != 0 && args == nullptr)) {
    return NPUD_KERNEL_ENTRY_BAD_ARGS;
  }
  if (ctx->core_type == NPUD_CORE_TYPE_MIX) {
    ::npud::ascendc::RunMixGroup(
        ctx, [&] { Invoke(kernel, args); }, MixVectorCoresOf(name));
    return NPUD_KERNEL_ENTRY_OK;
  }
  const ::npud::ascendc::BlockScope scope(ctx);
  Invoke(kernel, args);
  return NPUD_KERNEL_ENTRY_OK;
}

// The registration of a kernel launched with <<<>>> (device_launch.h odr-uses
// `registrar`, which instantiates it for each kernel and instantiation launched).
template <auto F>
struct NPUD_ASCENDC_HIDDEN LaunchedKernel {
  static int Entry(const NpudBlockContext* ctx, const void* args, std::size_t args_size) {
    return RunEntry(ctx, args, args_size, F, ::npud::kernel::KernelNameOf<F>());
  }
  static inline const Registrar registrar{::npud::kernel::KernelNameOf<F>(), &Entry, F,
                                          NPUD_CORE_TYPE_VECTOR, /*type_from_hint=*/true};
};

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
    return ::npud::kernel::internal::RunEntry(ctx, args, args_size, &name, #name);                \
  }                                                                                               \
  const ::npud::kernel::internal::Registrar npud_kernel_registrar_##name(                         \
      #name, &npud_kernel_entry_##name, &name, (kernel_type));                                    \
  }                                                                                               \
  static_assert(true, "NPUD_KERNEL_REGISTER(" #name ") must be followed by a semicolon")

// The core type of the kernels (or template kernel instantiations) named `name`, a
// string literal, when they are registered by their launches.
#define NPUD_KERNEL_CORE_TYPE(name, kernel_type)                                \
  namespace {                                                                   \
  const ::npud::kernel::internal::TypeHintRegistrar NPUD_KERNEL_CORE_TYPE_CAT_( \
      npud_kernel_core_type_, __LINE__)((name), (kernel_type));                 \
  }                                                                             \
  static_assert(true, "NPUD_KERNEL_CORE_TYPE(...) must be followed by a semicolon")
// The vector cores per group (1 or 2) of the mix kernels (or template kernel
// instantiations) named `name`, a string literal.
#define NPUD_KERNEL_MIX_VECTORS(name, vectors)                                    \
  namespace {                                                                     \
  const ::npud::kernel::internal::MixVectorsRegistrar NPUD_KERNEL_CORE_TYPE_CAT_( \
      npud_kernel_mix_vectors_, __LINE__)((name), (vectors));                     \
  }                                                                               \
  static_assert(true, "NPUD_KERNEL_MIX_VECTORS(...) must be followed by a semicolon")
#define NPUD_KERNEL_CORE_TYPE_CAT_(a, b) NPUD_KERNEL_CORE_TYPE_CAT2_(a, b)
#define NPUD_KERNEL_CORE_TYPE_CAT2_(a, b) a##b

#define NPUD_KERNEL_TABLE_DEFINE() static_assert(true, "npud_kernel_table is defined by the header")

#endif  // NPUD_KERNEL_REGISTER_H_
