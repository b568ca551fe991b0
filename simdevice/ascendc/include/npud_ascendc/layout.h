// layout.h: the small part of AscendC's layout algebra that TransData's parameters are
// written with: MakeShape(extents...), MakeStride(strides...), MakeLayout(shape,
// stride) and Layout, whose GetShape() gives the extents back (Get<i>(shape) or
// shape[i]). npud's APIs read only the extents; the strides are kept for Coord:
// a Layout maps a coordinate (MakeCoord(i, j, ...), a tuple) to the offset
// sum(coordinate[d] * stride[d]) (also Crd2Idx), as kernels compute their tiles'
// offsets with it.
#ifndef NPUD_ASCENDC_LAYOUT_H_
#define NPUD_ASCENDC_LAYOUT_H_

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>

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

  // The offset of a coordinate: its indices times the strides, summed.
  template <class... Ts>
  int64_t operator()(const std::tuple<Ts...>& coord) const {
    static_assert(sizeof...(Ts) <= StrideT::kRank, "Layout: a coordinate beyond the rank");
    return Offset(coord, std::index_sequence_for<Ts...>{});
  }

 private:
  template <class Tuple, size_t... I>
  int64_t Offset(const Tuple& coord, std::index_sequence<I...>) const {
    return (int64_t{0} + ... + (static_cast<int64_t>(std::get<I>(coord)) * stride_.value[I]));
  }

  ShapeT shape_{};
  StrideT stride_{};
};

template <class ShapeT, class StrideT>
Layout<ShapeT, StrideT> MakeLayout(const ShapeT& shape, const StrideT& stride) {
  return Layout<ShapeT, StrideT>(shape, stride);
}

// A coordinate: one index per dimension (std::get / Get of the kernel's reads it).
template <class... Ts>
using Coord = std::tuple<Ts...>;
template <class... Ts>
Coord<Ts...> MakeCoord(Ts... indices) {
  return Coord<Ts...>(indices...);
}

// The index of a coordinate in a layout (or its shape and strides): Layout's operator().
template <class... Ts, class ShapeT, class StrideT>
int64_t Crd2Idx(const Coord<Ts...>& coord, const Layout<ShapeT, StrideT>& layout) {
  return layout(coord);
}
template <class... Ts, class ShapeT, class StrideT>
int64_t Crd2Idx(const Coord<Ts...>& coord, const ShapeT& shape, const StrideT& stride) {
  return Layout<ShapeT, StrideT>(shape, stride)(coord);
}

template <size_t I, size_t N>
int64_t Get(const Shape<N>& shape) {
  static_assert(I < N, "Get: index beyond the shape's rank");
  return shape.value[I];
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_LAYOUT_H_
