// cube_panels.h: how Mmad multiplies on the CPU without paying per element for
// the fractal layouts (cube.h describes them and the arithmetic).
//
// An Mmad widens its operands once: A into a row of k accumulator-type values per
// row of C, B into panels, one per 16-column block of C, of k rows of 16 values.
// The product then walks contiguous memory with the 16 sums of a row of a block
// in registers (for float four rows at a time with AVX2, two with SSE), and
// C is read and written once per element. Every C element still starts from its
// initial value and adds its k products one after another, k = 0 first, with a
// float (or int64) addition each: the bits are those of the element-by-element
// loop (cube.h's RunMmad), and so are the floating-point exception flags, since
// no product outside the m x n x k shape is formed.
#ifndef NPUD_ASCENDC_CUBE_PANELS_H_
#define NPUD_ASCENDC_CUBE_PANELS_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>

#include "npud_ascendc/hf32.h"
#include "npud_ascendc/int4b.h"

namespace npud::ascendc {

// The cube's reading of A (L0A), B (L0B) and C (L0C) for one Mmad.
struct MmadShape {
  uint32_t m, n, k;
  uint32_t c0;        // elements per fractal row of A and B
  uint32_t k_blocks;  // fractal columns of A
  uint32_t n_blocks;  // fractals per k block of B
  uint32_t m_padded;  // rows of C's column blocks
  bool gemv;          // m == 1: A is one contiguous row

  uint64_t AIndex(uint32_t row, uint32_t col) const {
    if (gemv) return col;
    return (uint64_t{row / 16} * k_blocks + col / c0) * 16 * c0 + (row % 16) * c0 + col % c0;
  }
  uint64_t BIndex(uint32_t row, uint32_t col) const {
    return (uint64_t{row / c0} * n_blocks + col / 16) * 16 * c0 + (col % 16) * c0 + row % c0;
  }
  uint64_t CIndex(uint32_t row, uint32_t col) const {
    return (uint64_t{col / 16} * m_padded + row) * 16 + col % 16;
  }
};

// Columns of C per panel: one L0C column block.
inline constexpr uint32_t kPanelWidth = 16;

// out[row * depth + i] = A(row, i) for i < depth, widened to Acc; a fractal row
// (C0 elements) at a time.
template <class Acc, class A>
void WidenA(const MmadShape& s, const A* a, uint32_t depth, Acc* out) {
  if (s.gemv) {
    for (uint32_t i = 0; i < depth; ++i) out[i] = static_cast<Acc>(LoadElement(a, i));
    return;
  }
  for (uint32_t row = 0; row < s.m; ++row) {
    const uint64_t first = uint64_t{row / 16} * s.k_blocks * 16 * s.c0 + (row % 16) * s.c0;
    Acc* to = out + uint64_t{row} * depth;
    for (uint32_t i0 = 0; i0 < depth; i0 += s.c0) {
      const uint64_t from = first + uint64_t{i0 / s.c0} * 16 * s.c0;
      const uint32_t count = std::min(s.c0, depth - i0);
      for (uint32_t c = 0; c < count; ++c) to[i0 + c] = static_cast<Acc>(LoadElement(a, from + c));
    }
  }
}

// out[(block * depth + i) * 16 + j] = B(i, block * 16 + j), widened to Acc; columns
// past n are 0. A fractal (16 columns of C0 k-values each) at a time.
template <class Acc, class B>
void WidenB(const MmadShape& s, const B* b, uint32_t depth, Acc* out) {
  for (uint32_t block = 0; block < s.n_blocks; ++block) {
    Acc* panel = out + uint64_t{block} * depth * kPanelWidth;
    const uint32_t width = std::min(kPanelWidth, s.n - block * kPanelWidth);
    if (width < kPanelWidth) std::fill(panel, panel + uint64_t{depth} * kPanelWidth, Acc{});
    for (uint32_t i0 = 0; i0 < depth; i0 += s.c0) {
      const uint64_t fractal = (uint64_t{i0 / s.c0} * s.n_blocks + block) * 16 * s.c0;
      const uint32_t count = std::min(s.c0, depth - i0);
      for (uint32_t j = 0; j < width; ++j) {
        for (uint32_t c = 0; c < count; ++c) {
          panel[uint64_t{i0 + c} * kPanelWidth + j] =
              static_cast<Acc>(LoadElement(b, fractal + uint64_t{j} * s.c0 + c));
        }
      }
    }
  }
}

// sums[r * 16 + j] += rows[r][i] * panel[i * 16 + j] for i < depth, i ascending,
// j < width: the plain loop, for integers and for C's last, narrower block.
template <class Acc>
void AccumulateNarrow(const Acc* const* rows, uint32_t row_count, const Acc* panel, uint32_t depth,
                      uint32_t width, Acc* sums) {
  for (uint32_t r = 0; r < row_count; ++r) {
    Acc* sum = sums + r * kPanelWidth;
    for (uint32_t i = 0; i < depth; ++i) {
      const Acc x = rows[r][i];
      const Acc* b = panel + uint64_t{i} * kPanelWidth;
      for (uint32_t j = 0; j < width; ++j) sum[j] += x * b[j];
    }
  }
}

// The same for float and a full block, kRows rows at once, with the sums in vector
// registers of `Lanes` (SSE's 4 floats, or AVX's 8): each lane adds its products
// in the order above. Multiplies and adds only, never FMA, whose single rounding
// would change float products (kernels build for baseline x86-64, where the
// compiler has no FMA to contract into; the AVX2 variant below enables none).
template <class Lanes, uint32_t kRows>
__attribute__((always_inline)) inline void AccumulateLanes(const float* const* rows,
                                                           const float* panel, uint32_t depth,
                                                           float* sums) {
  constexpr uint32_t kLanes = sizeof(Lanes) / sizeof(float);
  constexpr uint32_t kVectors = kPanelWidth / kLanes;
  // Unrolled whole, so that the sums stay in registers.
  Lanes acc[kRows][kVectors];
#pragma GCC unroll 16
  for (uint32_t r = 0; r < kRows; ++r) {
#pragma GCC unroll 16
    for (uint32_t v = 0; v < kVectors; ++v) {
      std::memcpy(&acc[r][v], sums + r * kPanelWidth + v * kLanes, sizeof(Lanes));
    }
  }
  for (uint32_t i = 0; i < depth; ++i) {
    Lanes b[kVectors];
#pragma GCC unroll 16
    for (uint32_t v = 0; v < kVectors; ++v) {
      std::memcpy(&b[v], panel + uint64_t{i} * kPanelWidth + v * kLanes, sizeof(Lanes));
    }
#pragma GCC unroll 16
    for (uint32_t r = 0; r < kRows; ++r) {
      Lanes x;  // A's element in every lane (x + 0 would turn -0 into +0)
#pragma GCC unroll 16
      for (uint32_t l = 0; l < kLanes; ++l) x[l] = rows[r][i];
#pragma GCC unroll 16
      for (uint32_t v = 0; v < kVectors; ++v) acc[r][v] += x * b[v];
    }
  }
#pragma GCC unroll 16
  for (uint32_t r = 0; r < kRows; ++r) {
#pragma GCC unroll 16
    for (uint32_t v = 0; v < kVectors; ++v) {
      std::memcpy(sums + r * kPanelWidth + v * kLanes, &acc[r][v], sizeof(Lanes));
    }
  }
}

using SseLanes = float __attribute__((vector_size(16)));
using AvxLanes = float __attribute__((vector_size(32)));

// Two rows (8 sums in 8 of SSE's 16 registers), or one.
template <uint32_t kRows>
void AccumulateSse(const float* const* rows, const float* panel, uint32_t depth, float* sums) {
  AccumulateLanes<SseLanes, kRows>(rows, panel, depth, sums);
}

// Four rows (8 sums in 8 of AVX's 16 registers), or one: for CPUs with AVX2,
// which the kernel asks at run time (HasAvx2), as kernels are not built for it.
template <uint32_t kRows>
__attribute__((target("avx2"))) void AccumulateAvx2(const float* const* rows, const float* panel,
                                                    uint32_t depth, float* sums) {
  AccumulateLanes<AvxLanes, kRows>(rows, panel, depth, sums);
}

inline bool HasAvx2() { return __builtin_cpu_supports("avx2") != 0; }

// A full block's rows [0, row_count), row_count <= 4.
inline void AccumulateFull(const float* const* rows, uint32_t row_count, const float* panel,
                           uint32_t depth, float* sums) {
  const bool avx2 = HasAvx2();
  if (row_count == 4 && avx2) return AccumulateAvx2<4>(rows, panel, depth, sums);
  uint32_t r = 0;
  if (!avx2) {
    for (; r + 2 <= row_count; r += 2) {
      AccumulateSse<2>(rows + r, panel, depth, sums + r * kPanelWidth);
    }
  }
  for (; r < row_count; ++r) {
    if (avx2) {
      AccumulateAvx2<1>(rows + r, panel, depth, sums + r * kPanelWidth);
    } else {
      AccumulateSse<1>(rows + r, panel, depth, sums + r * kPanelWidth);
    }
  }
}

// What the cube's control register says about an Mmad (mmad_config.h): float
// operands rounded to HF32 first (with ties away from zero or to even), and the
// order results are produced in: down M first (column major, the default) or
// along N first (row major). The order changes no value; `init` sees it.
struct DenseMmadMode {
  bool hf32 = false;
  bool hf32_ties_away = false;
  bool n_first = false;
};

// C (+)= A x B over `depth` k values, dense (B's row i meets A's column i).
// `init(row, col, have)` gives a sum's start from C's current value `have`; it is
// called in the order the sums are produced.
template <class C, class A, class B, class Init>
void RunDenseMmad(const MmadShape& s, C* c, const A* a, const B* b, uint32_t depth, Init init,
                  const DenseMmadMode& mode = {}) {
  using Acc = std::conditional_t<std::is_integral_v<C>, int64_t, float>;
  std::unique_ptr<Acc[]> wide_a(new Acc[uint64_t{s.m} * depth]);
  std::unique_ptr<Acc[]> wide_b(new Acc[uint64_t{s.n_blocks} * depth * kPanelWidth]);
  WidenA(s, a, depth, wide_a.get());
  WidenB(s, b, depth, wide_b.get());
  if constexpr (std::is_same_v<A, float> && std::is_same_v<B, float>) {
    if (mode.hf32) {
      // Every operand once (B's padding columns are zeros, which stay).
      for (uint64_t i = 0; i < uint64_t{s.m} * depth; ++i) {
        wide_a[i] = RoundToHf32(wide_a[i], mode.hf32_ties_away);
      }
      for (uint64_t i = 0; i < uint64_t{s.n_blocks} * depth * kPanelWidth; ++i) {
        wide_b[i] = RoundToHf32(wide_b[i], mode.hf32_ties_away);
      }
    }
  }
  constexpr uint32_t kRowsAtOnce = 4;
  Acc sums[kRowsAtOnce * kPanelWidth];
  // One tile: rows [row0, row0 + 4) of column block `block`.
  auto tile = [&](uint32_t block, uint32_t row0) {
    const Acc* panel = wide_b.get() + uint64_t{block} * depth * kPanelWidth;
    const uint32_t col0 = block * kPanelWidth;
    const uint32_t width = std::min(kPanelWidth, s.n - col0);
    const uint32_t row_count = std::min(kRowsAtOnce, s.m - row0);
    const Acc* rows[kRowsAtOnce] = {};
    for (uint32_t r = 0; r < row_count; ++r) {
      rows[r] = wide_a.get() + uint64_t{row0 + r} * depth;
      // A row of an L0C column block is contiguous (s.CIndex).
      const C* have = c + (uint64_t{block} * s.m_padded + row0 + r) * kPanelWidth;
      for (uint32_t j = 0; j < width; ++j) {
        sums[r * kPanelWidth + j] = init(row0 + r, col0 + j, static_cast<Acc>(have[j]));
      }
    }
    if constexpr (std::is_same_v<Acc, float>) {
      if (width == kPanelWidth) {
        AccumulateFull(rows, row_count, panel, depth, sums);
      } else {
        AccumulateNarrow(rows, row_count, panel, depth, width, sums);
      }
    } else {
      AccumulateNarrow(rows, row_count, panel, depth, width, sums);
    }
    for (uint32_t r = 0; r < row_count; ++r) {
      C* out = c + (uint64_t{block} * s.m_padded + row0 + r) * kPanelWidth;
      for (uint32_t j = 0; j < width; ++j) out[j] = static_cast<C>(sums[r * kPanelWidth + j]);
    }
  };
  if (mode.n_first) {
    for (uint32_t row0 = 0; row0 < s.m; row0 += kRowsAtOnce) {
      for (uint32_t block = 0; block < s.n_blocks; ++block) tile(block, row0);
    }
  } else {
    for (uint32_t block = 0; block < s.n_blocks; ++block) {
      for (uint32_t row0 = 0; row0 < s.m; row0 += kRowsAtOnce) tile(block, row0);
    }
  }
}

}  // namespace npud::ascendc

#endif  // NPUD_ASCENDC_CUBE_PANELS_H_
