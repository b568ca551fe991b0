// npud_kernel_args.h: the packed argument layout of a kernel launch (host and device).
//
// A kernel `void k(P1 a, P2 b, ...)` receives its arguments as the bytes of a C struct
// { P1 a; P2 b; ... }: each parameter at the next offset aligned to alignof(Pi), the
// total rounded up to the largest alignment. A kernel without parameters has size 0.
// Plain C++17, no AscendC dependency; parameter types must be trivially copyable.
//
//   npud::kernel::PackedSize<decltype(&k)>::value   // bytes of the packed arguments
//   npud::kernel::Pack(out, a, b)                   // host: pack with the argument types
//   npud::kernel::PackFor(&k, out, a, b)            // host: convert to k's types, pack
//   npud::kernel::Invoke(&k, args)                  // device: unpack, call k
//
// Packing and unpacking go through memcpy, so `out`/`args` need no alignment.
#ifndef NPUD_KERNEL_ARGS_H_
#define NPUD_KERNEL_ARGS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

namespace npud::kernel {

// ArgLayout<A...>: offsets of each parameter and the total packed size.
template <class... A>
struct ArgLayout {
  static_assert((std::is_trivially_copyable_v<A> && ...),
                "kernel parameters must be trivially copyable values");
  static_assert((!std::is_reference_v<A> && ...), "kernel parameters cannot be references");

  static constexpr std::size_t kCount = sizeof...(A);

  static constexpr std::array<std::size_t, kCount> Offsets() {
    std::array<std::size_t, kCount> offsets{};
    constexpr std::size_t sizes[] = {sizeof(A)..., 0};
    constexpr std::size_t aligns[] = {alignof(A)..., 1};
    std::size_t at = 0;
    for (std::size_t i = 0; i < kCount; ++i) {
      at = (at + aligns[i] - 1) / aligns[i] * aligns[i];
      offsets[i] = at;
      at += sizes[i];
    }
    return offsets;
  }

  static constexpr std::size_t Size() {
    if constexpr (kCount == 0) {
      return 0;
    } else {
      constexpr std::size_t sizes[] = {sizeof(A)...};
      constexpr std::size_t aligns[] = {alignof(A)...};
      std::size_t max_align = 1;
      for (std::size_t a : aligns) max_align = a > max_align ? a : max_align;
      const std::size_t end = Offsets()[kCount - 1] + sizes[kCount - 1];
      return (end + max_align - 1) / max_align * max_align;
    }
  }
};

// PackedSize<void (*)(A...)>::value (also accepts the function type void(A...)).
template <class Fn>
struct PackedSize;
template <class R, class... A>
struct PackedSize<R (*)(A...)> {
  static constexpr std::size_t value = ArgLayout<A...>::Size();
};
template <class R, class... A>
struct PackedSize<R(A...)> : PackedSize<R (*)(A...)> {};

namespace internal {

template <class... A, std::size_t... I>
void PackAt(std::uint8_t* out, std::index_sequence<I...>, const A&... args) {
  [[maybe_unused]] constexpr auto offsets = ArgLayout<A...>::Offsets();
  (std::memcpy(out + offsets[I], &args, sizeof(A)), ...);
}

template <class... A, std::size_t... I>
void InvokeAt(void (*fn)(A...), [[maybe_unused]] const std::uint8_t* in,
              std::index_sequence<I...>) {
  [[maybe_unused]] constexpr auto offsets = ArgLayout<A...>::Offsets();
  [[maybe_unused]] std::tuple<std::remove_cv_t<A>...> values;
  (std::memcpy(&std::get<I>(values), in + offsets[I], sizeof(A)), ...);
  fn(std::get<I>(values)...);
}

}  // namespace internal

// Writes the packed arguments (exactly ArgLayout<A...>::Size() bytes, padding zeroed)
// to `out`. The layout follows the argument types as given: pass values of the kernel's
// exact parameter types, or use PackFor.
template <class... A>
void Pack(std::uint8_t* out, A... args) {
  constexpr std::size_t size = ArgLayout<A...>::Size();
  if constexpr (size != 0) {
    std::memset(out, 0, size);
    internal::PackAt<A...>(out, std::index_sequence_for<A...>{}, args...);
  }
}

// Like Pack, but converts each argument to the kernel's parameter type first.
template <class... P, class... A>
void PackFor(void (*)(P...), std::uint8_t* out, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "argument count differs from the kernel's");
  Pack<std::remove_cv_t<P>...>(out, static_cast<std::remove_cv_t<P>>(std::forward<A>(args))...);
}

// Unpacks `args` (PackedSize bytes laid out as above) and calls fn on this thread.
template <class... A>
void Invoke(void (*fn)(A...), const void* args) {
  internal::InvokeAt(fn, static_cast<const std::uint8_t*>(args), std::index_sequence_for<A...>{});
}

}  // namespace npud::kernel

#endif  // NPUD_KERNEL_ARGS_H_
