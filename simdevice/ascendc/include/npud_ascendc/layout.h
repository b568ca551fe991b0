// layout.h: the small part of AscendC's layout algebra that TransData's parameters are
// written with: MakeShape(extents...), MakeStride(strides...), MakeLayout(shape,
// stride) and Layout, whose GetShape() gives the extents back (Get<i>(shape) or
// shape[i]). npud's APIs read only the extents; the strides are kept, not used.
#ifndef NPUD_ASCENDC_LAYOUT_H_
#define NPUD_ASCENDC_LAYOUT_H_

#include <cstddef>
#include <cstdint>

namespace AscendC {

// N extents (or strides) of a tensor, outermost first.
template <size_t N>
struct Shape {
  static constexpr size_t kRank = N;
  int64_t value[N == 0 ? 1 : N] = {};
  int64_t operator[](size_t i) const { return i < N ? value[i] : 0; }
};
template <size_t N>
struct Stride : Shape<N> {};

template <class... Ts>
Shape<sizeof...(Ts)> MakeShape(Ts... extents) {
  return Shape<sizeof...(Ts)>{{static_cast<int64_t>(extents)...}};
}
template <class... Ts>
Stride<sizeof...(Ts)> MakeStride(Ts... strides) {
  Stride<sizeof...(Ts)> s;
  const int64_t values[sizeof...(Ts) == 0 ? 1 : sizeof...(Ts)] = {static_cast<int64_t>(strides)...};
  for (size_t i = 0; i < sizeof...(Ts); ++i) s.value[i] = values[i];
  return s;
}

template <class ShapeT, class StrideT>
class Layout {
 public:
  Layout() = default;
  Layout(const ShapeT& shape, const StrideT& stride) : shape_(shape), stride_(stride) {}
  const ShapeT& GetShape() const { return shape_; }
  const StrideT& GetStride() const { return stride_; }

 private:
  ShapeT shape_{};
  StrideT stride_{};
};

template <class ShapeT, class StrideT>
Layout<ShapeT, StrideT> MakeLayout(const ShapeT& shape, const StrideT& stride) {
  return Layout<ShapeT, StrideT>(shape, stride);
}

template <size_t I, size_t N>
int64_t Get(const Shape<N>& shape) {
  static_assert(I < N, "Get: index beyond the shape's rank");
  return shape.value[I];
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_LAYOUT_H_
