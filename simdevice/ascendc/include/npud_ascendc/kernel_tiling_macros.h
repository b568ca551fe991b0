// kernel_tiling_macros.h: the Kernel-Tiling macros of operator kernels.
//
//   REGISTER_TILING_DEFAULT(Struct);             the default TilingData struct (C++ syntax)
//   REGISTER_TILING_FOR_TILINGKEY("expr", Struct);  Struct for the keys where expr holds
//   REGISTER_NONE_TILING;                        no registered struct
//   GET_TILING_DATA(var, tiling);                var: a copy of the default struct
//   GET_TILING_DATA_WITH_STRUCT(Struct, var, tiling);
//   GET_TILING_DATA_MEMBER(Struct, member, var, tiling);   var: that member
//   GET_TILING_DATA_PTR_WITH_STRUCT(Struct, ptr, tiling);  ptr: the struct in GM
//   COPY_TILING_WITH_STRUCT(Struct, src, dst);   dst: pointer to a local copy of *src
//   COPY_TILING_WITH_ARRAY(type, n, src, dst);   dst: pointer to a local type[n] copy
//   TILING_KEY_IS(k), TILING_KEY_LIST(k1, k2), TILING_KEY_VAR
//
// `tiling` is the kernel's GM_ADDR tiling argument: the bytes the host tiling wrote
// (SaveToBuffer, or a C++ struct), read as the struct named. The default struct is
// the one REGISTER_TILING_DEFAULT names in the enclosing scope: npud has no operator
// project that would generate it from the host's BEGIN_TILING_DATA_DEF, so
// GET_TILING_DATA without it does not compile (nor after REGISTER_NONE_TILING, nor a
// REGISTER_TILING_FOR_TILINGKEY without a default, nor mixing NONE with DEFAULT: the
// reference's rules, as compile errors).
//
// The tiling key. On the NPU the kernel is compiled once per key, and the launch
// picks the binary; here TILING_KEY_IS compares at run time with the block's key,
// which the CPU-debug launch ICPU_RUN_KF sets (ICPU_SET_TILING_KEY, tikicpulib.h).
// Launches through ACL carry no key (CANN documents these macros as unsupported in
// direct-call kernel projects): a block that asks for it fails, naming the macro.
// A build for one key (-DTILING_KEY_VAR=k) compares with that key instead.
// REGISTER_TILING_FOR_TILINGKEY evaluates its expression for the key (when there is
// one) and fails the block when two different structs claim it in one invocation.
#ifndef NPUD_ASCENDC_KERNEL_TILING_MACROS_H_
#define NPUD_ASCENDC_KERNEL_TILING_MACROS_H_

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/tiling_key_expression.h"
#include "npud_ascendc/visibility.h"

namespace npud::ascendc {

struct NoDefaultTiling;  // no REGISTER_TILING_DEFAULT in scope
struct NoneTiling;       // REGISTER_NONE_TILING

// The running block's tiling key, when its launch has one (ICPU_RUN_KF sets it).
struct TilingKeyState {
  bool set = false;
  uint64_t key = 0;
};
NPUD_ASCENDC_HIDDEN inline thread_local TilingKeyState tls_tiling_key{};

template <class T>
inline constexpr char kTilingTag = 0;

inline uint64_t TilingKey(const char* what) {
  if (!tls_tiling_key.set) {
    Fail(
        "%s: this launch has no tiling key (ICPU_SET_TILING_KEY gives one to ICPU_RUN_KF; "
        "kernel launches through ACL carry none, as in CANN's direct-call projects)",
        what);
  }
  return tls_tiling_key.key;
}

inline bool TilingKeyIn(uint64_t key, std::initializer_list<uint64_t> keys) {
  for (const uint64_t k : keys) {
    if (k == key) return true;
  }
  return false;
}

// The registrations of one kernel invocation (REGISTER_TILING_DEFAULT declares it in
// the kernel's scope): which struct claimed the key.
class TilingRegistry {
 public:
  // `has_key` false: no key to evaluate the expression for (nothing is checked).
  void Register(const char* expression, const void* tag, const char* name, bool has_key,
                uint64_t key) {
    if (!has_key) return;
    uint64_t value = 0;
    const char* error = nullptr;
    if (!TilingKeyExpression(expression, key).Evaluate(&value, &error)) {
      Fail("REGISTER_TILING_FOR_TILINGKEY(\"%s\", %s): %s", expression, name, error);
    }
    if (value == 0) return;
    if (registered_ != nullptr && registered_ != tag) {
      Fail("REGISTER_TILING_FOR_TILINGKEY: tiling key %llu is registered to both %s and %s",
           static_cast<unsigned long long>(key), registered_name_, name);
    }
    registered_ = tag;
    registered_name_ = name;
  }

 private:
  const void* registered_ = nullptr;  // &kTilingTag<Struct>
  const char* registered_name_ = nullptr;
};

template <class T>
T LoadTiling(const void* tiling, const char* what) {
  static_assert(std::is_trivially_copyable_v<T>, "a TilingData struct is plain bytes");
  if (tiling == nullptr) Fail("%s: the tiling argument is a null pointer", what);
  T value;
  std::memcpy(static_cast<void*>(&value), tiling, sizeof(T));
  return value;
}

template <class T>
const T* TilingPointer(const void* tiling) {
  static_assert(std::is_trivially_copyable_v<T>, "a TilingData struct is plain bytes");
  if (tiling == nullptr) Fail("GET_TILING_DATA_PTR_WITH_STRUCT: the tiling argument is null");
  return static_cast<const T*>(tiling);
}

// COPY_TILING_*'s source: a pointer to the struct, or the struct (or array) itself,
// as the reference's examples pass a member.
template <class T, class S>
T CopyTiling(const S& src) {
  if constexpr (std::is_pointer_v<S>) {
    return LoadTiling<T>(static_cast<const void*>(src), "COPY_TILING");
  } else {
    static_assert(sizeof(S) >= sizeof(T), "COPY_TILING: the source is smaller than the copy");
    return LoadTiling<T>(static_cast<const void*>(&src), "COPY_TILING");
  }
}

}  // namespace npud::ascendc

// What GET_TILING_DATA reads; REGISTER_TILING_DEFAULT redeclares it in its scope.
using NpudDefaultTilingType = ::npud::ascendc::NoDefaultTiling;

#define NPUD_TILING_IS_DEFAULT_REGISTERED_(T)              \
  (!std::is_same_v<T, ::npud::ascendc::NoDefaultTiling> && \
   !std::is_same_v<T, ::npud::ascendc::NoneTiling>)

#define REGISTER_TILING_DEFAULT(tiling_struct)                                        \
  static_assert(!std::is_same_v<NpudDefaultTilingType, ::npud::ascendc::NoneTiling>,  \
                "REGISTER_TILING_DEFAULT cannot be mixed with REGISTER_NONE_TILING"); \
  static_assert(std::is_trivially_copyable_v<tiling_struct>,                          \
                "REGISTER_TILING_DEFAULT: a TilingData struct is plain bytes");       \
  [[maybe_unused]] ::npud::ascendc::TilingRegistry npud_tiling_registry;              \
  using NpudDefaultTilingType [[maybe_unused]] = tiling_struct

#define REGISTER_TILING_FOR_TILINGKEY(expression, tiling_struct)                            \
  static_assert(NPUD_TILING_IS_DEFAULT_REGISTERED_(NpudDefaultTilingType),                  \
                "REGISTER_TILING_FOR_TILINGKEY needs REGISTER_TILING_DEFAULT before it");   \
  npud_tiling_registry.Register("" expression, &::npud::ascendc::kTilingTag<tiling_struct>, \
                                #tiling_struct, NPUD_TILING_KEY_KNOWN_)

#define REGISTER_NONE_TILING                                                               \
  static_assert(std::is_same_v<NpudDefaultTilingType, ::npud::ascendc::NoDefaultTiling> || \
                    std::is_same_v<NpudDefaultTilingType, ::npud::ascendc::NoneTiling>,    \
                "REGISTER_NONE_TILING cannot be mixed with REGISTER_TILING_DEFAULT");      \
  using NpudDefaultTilingType [[maybe_unused]] = ::npud::ascendc::NoneTiling

#define GET_TILING_DATA(tiling_data, tiling_arg)                                             \
  static_assert(!std::is_same_v<NpudDefaultTilingType, ::npud::ascendc::NoneTiling>,         \
                "GET_TILING_DATA: REGISTER_NONE_TILING registers no default struct; use "    \
                "GET_TILING_DATA_WITH_STRUCT");                                              \
  static_assert(!std::is_same_v<NpudDefaultTilingType, ::npud::ascendc::NoDefaultTiling>,    \
                "GET_TILING_DATA needs REGISTER_TILING_DEFAULT(struct) before it (npud has " \
                "no operator project to generate the default struct from)");                 \
  NpudDefaultTilingType tiling_data =                                                        \
      ::npud::ascendc::LoadTiling<NpudDefaultTilingType>(tiling_arg, "GET_TILING_DATA")

#define GET_TILING_DATA_WITH_STRUCT(tiling_struct, tiling_data, tiling_arg) \
  tiling_struct tiling_data =                                               \
      ::npud::ascendc::LoadTiling<tiling_struct>(tiling_arg, "GET_TILING_DATA_WITH_STRUCT")

#define GET_TILING_DATA_MEMBER(tiling_struct, member, var, tiling_arg)                  \
  tiling_struct npud_tiling_of_##var =                                                  \
      ::npud::ascendc::LoadTiling<tiling_struct>(tiling_arg, "GET_TILING_DATA_MEMBER"); \
  auto& var = npud_tiling_of_##var.member

// The struct where it lies in GM (dynamic shapes, in the reference's terms).
#define __tiling_data_ptr__ const
#define GET_TILING_DATA_PTR_WITH_STRUCT(tiling_struct, dst_ptr, tiling_ptr) \
  __tiling_data_ptr__ tiling_struct* dst_ptr =                              \
      ::npud::ascendc::TilingPointer<tiling_struct>(tiling_ptr)

#define COPY_TILING_WITH_STRUCT(tiling_struct, src_ptr, dst_ptr) \
  const tiling_struct npud_tiling_copy_##dst_ptr =               \
      ::npud::ascendc::CopyTiling<tiling_struct>(src_ptr);       \
  const tiling_struct* dst_ptr = &npud_tiling_copy_##dst_ptr

#define COPY_TILING_WITH_ARRAY(arr_type, arr_count, src_ptr, dst_ptr)  \
  struct NpudTilingArray_##dst_ptr {                                   \
    arr_type values[arr_count];                                        \
  };                                                                   \
  const NpudTilingArray_##dst_ptr npud_tiling_copy_##dst_ptr =         \
      ::npud::ascendc::CopyTiling<NpudTilingArray_##dst_ptr>(src_ptr); \
  const arr_type(*dst_ptr)[arr_count] = &npud_tiling_copy_##dst_ptr.values

// A build for one key (-DTILING_KEY_VAR=k, as CANN compiles each key) compares with
// it; otherwise the block's key is read at run time.
#ifdef TILING_KEY_VAR
#define NPUD_TILING_KEY_(what) static_cast<uint64_t>(TILING_KEY_VAR)
#define NPUD_TILING_KEY_KNOWN_ true, static_cast<uint64_t>(TILING_KEY_VAR)
#else
#define NPUD_TILING_KEY_(what) ::npud::ascendc::TilingKey(what)
#define NPUD_TILING_KEY_KNOWN_ \
  ::npud::ascendc::tls_tiling_key.set, ::npud::ascendc::tls_tiling_key.key
#define TILING_KEY_VAR NPUD_TILING_KEY_("TILING_KEY_VAR")
#endif
#define TILING_KEY_IS(key) (NPUD_TILING_KEY_("TILING_KEY_IS") == static_cast<uint64_t>(key))
#define TILING_KEY_LIST(...) \
  (::npud::ascendc::TilingKeyIn(NPUD_TILING_KEY_("TILING_KEY_LIST"), {__VA_ARGS__}))

#endif  // NPUD_ASCENDC_KERNEL_TILING_MACROS_H_
