// host_launch.h: the host side of a `<<<>>>` kernel launch in a library built by npud's
// ascendc.cmake (ascendc_library). Header-only; uses only the public ACL API.
//
// ascendc_library(<name> ...) compiles each kernel source into a kernel object (the
// "device" build) and embeds that object's bytes in the host library <name>, next to a
// Library object that owns them (generated code, one per ascendc_library target, in a
// namespace unique to the target). In the host build of the source, every
//
//   kernel<<<blockDim, l2ctrl, stream>>>(args...)
//
// has been rewritten to
//
//   ::npud_ascendc_launch<(kernel)>("kernel", blockDim, l2ctrl, stream)(args...)
//
// where npud_ascendc_launch is defined per translation unit by
// NPUD_ASCENDC_HOST_LAUNCHER(<namespace>); and binds the launch to that target's Library.
// The value of the whole expression is the launch's aclError as uint32_t (0 = success),
// so `static_cast<int32_t>(k<<<...>>>(...))` and plain statements both work.
//
// A launch:
//   1. loads the embedded kernel object once per library and process
//      (aclrtBinaryLoadFromData; thread-safe; retried by the next launch if it failed),
//   2. looks the kernel up once (aclrtBinaryGetFunction; cached per kernel) by the name
//      npud_kernel_name.h gives it, which the kernel object registered it under,
//   3. packs the arguments like a C struct of the kernel's parameter types
//      (npud::kernel::PackFor, npud_kernel_args.h), converting each argument to its
//      parameter type (e.g. a host `int*` for a `__gm__ int*` parameter),
//   4. enqueues aclrtLaunchKernelWithHostArgs(func, blockDim, stream, nullptr, args,
//      size, nullptr, 0) on `stream` (nullptr = the default stream) and returns its result.
// The second `<<<>>>` argument (l2ctrl pointer or dynamic UB size) is accepted and ignored;
// without the third, the launch goes to the default stream.
// Failures are also reported on stderr (the first few per library), because the sample
// wrappers that use <<<>>> usually drop the status.
//
// Device symbols: the generated host unit registers with the runtime, for each kernel
// and each `__gm__` variable of the source (NPUD_GM_END, device_variables.h), its host
// address, its name and how to load the library's binary, so that
// aclrtGetFuncBySymbol(&kernel) and aclrtGetSymbolAddress(&variable) find them.
#ifndef NPUD_ASCENDC_HOST_LAUNCH_H_
#define NPUD_ASCENDC_HOST_LAUNCH_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "npud_kernel_args.h"
#include "npud_kernel_name.h"

#define NPUD_ASCENDC_HOST_HIDDEN __attribute__((visibility("hidden")))

namespace npud::ascendc::host {

// The kernel object one ascendc_library target embeds, and its handles in the ACL runtime.
class NPUD_ASCENDC_HOST_HIDDEN Library {
 public:
  // `object` (the bytes of the kernel shared object, `size` bytes) must outlive this.
  Library(const char* name, const unsigned char* object, std::size_t size)
      : name_(name), object_(object), size_(size) {}
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  // The binary stays loaded until the process ends: unloading it from a static
  // destructor could run after aclFinalize.
  ~Library() = default;

  const char* name() const { return name_; }

  // The library's binary handle (loads it first if needed).
  aclError Binary(aclrtBinHandle* bin) { return Load("(device symbol)", bin); }

  // The function handle of kernel `kernel` (loads the object first if needed).
  aclError Function(const char* kernel, aclrtFuncHandle* func) {
    aclrtBinHandle bin = nullptr;
    const aclError load = Load(kernel, &bin);
    if (load != ACL_SUCCESS) return load;
    const std::lock_guard<std::mutex> lock(functions_mu_);
    for (const FunctionEntry& entry : functions_) {
      if (std::strcmp(entry.kernel, kernel) == 0) {
        *func = entry.func;
        return ACL_SUCCESS;
      }
    }
    aclrtFuncHandle found = nullptr;
    const aclError err = aclrtBinaryGetFunction(bin, kernel, &found);
    if (err != ACL_SUCCESS) {
      Report(kernel, "aclrtBinaryGetFunction", err);
      return err;
    }
    functions_.push_back(FunctionEntry{kernel, found});
    *func = found;
    return ACL_SUCCESS;
  }

  // Prints a failed launch step to stderr; only the first few per library.
  void Report(const char* kernel, const char* step, aclError err) {
    constexpr int kMaxReports = 4;
    const int n = reports_.fetch_add(1, std::memory_order_relaxed);
    if (n >= kMaxReports) return;
    std::fprintf(
        stderr,
        "npud ascendc: launch of kernel '%s' (ascendc_library %s) failed: %s returned %d%s\n",
        kernel, name_, step, static_cast<int>(err),
        n + 1 == kMaxReports ? " (further failures of this library are not reported)" : "");
  }

 private:
  struct FunctionEntry {
    const char* kernel;  // the launch site's string literal
    aclrtFuncHandle func;
  };

  aclError Load(const char* kernel, aclrtBinHandle* bin) {
    aclrtBinHandle loaded = bin_.load(std::memory_order_acquire);
    if (loaded == nullptr) {
      const std::lock_guard<std::mutex> lock(load_mu_);
      loaded = bin_.load(std::memory_order_relaxed);
      if (loaded == nullptr) {
        const aclError err = aclrtBinaryLoadFromData(object_, size_, nullptr, &loaded);
        if (err != ACL_SUCCESS || loaded == nullptr) {
          Report(kernel, "aclrtBinaryLoadFromData", err);
          return err != ACL_SUCCESS ? err : ACL_ERROR_RT_INTERNAL_ERROR;
        }
        bin_.store(loaded, std::memory_order_release);
      }
    }
    *bin = loaded;
    return ACL_SUCCESS;
  }

  const char* const name_;
  const unsigned char* const object_;
  const std::size_t size_;
  std::mutex load_mu_;
  std::atomic<aclrtBinHandle> bin_{nullptr};
  std::mutex functions_mu_;
  std::vector<FunctionEntry> functions_;
  std::atomic<int> reports_{0};
};

// One launch: the configuration part of `<<<>>>`; calling it with the kernel arguments
// packs them and enqueues the kernel.
template <class... P>
class NPUD_ASCENDC_HOST_HIDDEN KernelLaunch {
 public:
  KernelLaunch(Library& library, void (*kernel)(P...), const char* name, std::uint32_t block_dim,
               aclrtStream stream)
      : library_(library), kernel_(kernel), name_(name), block_dim_(block_dim), stream_(stream) {}

  template <class... A>
  std::uint32_t operator()(A&&... args) const {
    static_assert(sizeof...(A) == sizeof...(P),
                  "kernel launch: argument count differs from the kernel's");
    constexpr std::size_t kSize = ::npud::kernel::PackedSize<void (*)(P...)>::value;
    alignas(std::max_align_t) std::uint8_t packed[kSize == 0 ? 1 : kSize] = {};
    ::npud::kernel::PackFor(kernel_, packed, std::forward<A>(args)...);
    aclrtFuncHandle func = nullptr;
    aclError err = library_.Function(name_, &func);
    if (err != ACL_SUCCESS) return static_cast<std::uint32_t>(err);
    err = aclrtLaunchKernelWithHostArgs(func, block_dim_, stream_, nullptr, packed, kSize, nullptr,
                                        0);
    if (err != ACL_SUCCESS) library_.Report(name_, "aclrtLaunchKernelWithHostArgs", err);
    return static_cast<std::uint32_t>(err);
  }

 private:
  Library& library_;
  void (*const kernel_)(P...);
  const char* const name_;
  const std::uint32_t block_dim_;
  const aclrtStream stream_;
};

template <class... P>
KernelLaunch<P...> MakeLaunch(Library& library, void (*kernel)(P...), const char* name,
                              std::uint32_t block_dim, aclrtStream stream) {
  return KernelLaunch<P...>(library, kernel, name, block_dim, stream);
}

// libacl_rt's registry of device symbols (not part of the ACL API). `load` gives the
// binary that defines the symbol under `name`; `size` is a variable's sizeof, 0 for a
// kernel.
extern "C" void npudRegisterDeviceSymbol(const void* symbol, const char* name, std::size_t size,
                                         int is_variable, aclError (*load)(aclrtBinHandle*));
extern "C" void npudUnregisterDeviceSymbol(const void* symbol);

// Registers a symbol for as long as the library that holds it is loaded.
class NPUD_ASCENDC_HOST_HIDDEN SymbolRegistrar {
 public:
  SymbolRegistrar(const void* symbol, const char* name, std::size_t size, bool is_variable,
                  aclError (*load)(aclrtBinHandle*))
      : symbol_(symbol) {
    npudRegisterDeviceSymbol(symbol, name, size, is_variable ? 1 : 0, load);
  }
  ~SymbolRegistrar() { npudUnregisterDeviceSymbol(symbol_); }
  SymbolRegistrar(const SymbolRegistrar&) = delete;
  SymbolRegistrar& operator=(const SymbolRegistrar&) = delete;

 private:
  const void* const symbol_;
};

}  // namespace npud::ascendc::host

// A kernel of the source, for aclrtGetFuncBySymbol.
#define NPUD_ASCENDC_KERNEL_SYMBOL(name)                                         \
  static const ::npud::ascendc::host::SymbolRegistrar npud_kernel_symbol_##name( \
      reinterpret_cast<const void*>(&name), #name, 0, false, &npud_ascendc_load_binary)

// A `__gm__` variable of the source: in the host half, an ordinary variable whose
// address the runtime knows.
#define NPUD_GM_BEGIN(name)
#define NPUD_GM_END(name)                                                    \
  static const ::npud::ascendc::host::SymbolRegistrar npud_gm_symbol_##name( \
      static_cast<const void*>(&name), #name, sizeof(name), true, &npud_ascendc_load_binary)

// Defines, in the including translation unit, the npud_ascendc_launch that rewritten
// launches call, bound to `ns::KernelLibrary()` (defined by the generated source that
// embeds the kernel object). Internal linkage: every ascendc_library target has its own.
#define NPUD_ASCENDC_HOST_LAUNCHER(ns)                                                           \
  namespace ns {                                                                                 \
  NPUD_ASCENDC_HOST_HIDDEN ::npud::ascendc::host::Library& KernelLibrary();                      \
  }                                                                                              \
  static inline aclError npud_ascendc_load_binary(::aclrtBinHandle* bin) {                       \
    return ::ns::KernelLibrary().Binary(bin);                                                    \
  }                                                                                              \
  template <auto kKernel, class L2>                                                              \
  static inline auto npud_ascendc_launch(const char* /*spelling*/, ::std::uint32_t block_dim,    \
                                         const L2& /*l2ctrl*/, ::aclrtStream stream = nullptr) { \
    return ::npud::ascendc::host::MakeLaunch(::ns::KernelLibrary(), kKernel,                     \
                                             ::npud::kernel::KernelNameOf<kKernel>(), block_dim, \
                                             stream);                                            \
  }                                                                                              \
  static_assert(true, "NPUD_ASCENDC_HOST_LAUNCHER(" #ns ") must be followed by a semicolon")

#endif  // NPUD_ASCENDC_HOST_LAUNCH_H_
