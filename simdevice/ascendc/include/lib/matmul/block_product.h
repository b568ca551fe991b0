// lib/matmul/block_product.h: the arithmetic of one base block of the CPU Matmul
// (lib/matmul_intf.h): C (rows x cols) = A (rows x k) times B (k x cols), every
// element summed from zero in order of k, as one accumulator would (float, or int64
// for integer inputs).
//
// B is first packed into strips of kStrip columns, each strip k rows of kStrip values
// (zero past the last column), so that a 4 x kStrip tile of C stays in registers while
// the loop over k streams one strip and four rows of A; for float the tile is explicit
// 4-lane vectors (about 3.5 times a dot product per element at -O2, which kernels are
// built with).
#ifndef NPUD_LIB_MATMUL_BLOCK_PRODUCT_H_
#define NPUD_LIB_MATMUL_BLOCK_PRODUCT_H_

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace AscendC::npud_matmul {

constexpr int32_t kStrip = 8;
constexpr int32_t kTileRows = 4;

// Packs `cols` columns of k values each (column j at b[j * k]) into strips.
template <class Acc>
void PackStrips(const Acc* b, int32_t cols, int32_t k, std::vector<Acc>& strips) {
  const int32_t count = (cols + kStrip - 1) / kStrip;
  strips.assign(uint64_t(count) * k * kStrip, Acc{});
  for (int32_t j = 0; j < cols; ++j) {
    Acc* to = &strips[uint64_t(j / kStrip) * k * kStrip + j % kStrip];
    const Acc* from = &b[uint64_t(j) * k];
    for (int32_t p = 0; p < k; ++p) to[uint64_t(p) * kStrip] = from[p];
  }
}

// A tile of 4 rows x kStrip columns of C for float: eight 4-lane vectors that stay in
// registers (GCC / clang vector extensions; each lane still sums in order of p).
inline void FloatTile(const float* a, int32_t k, const float* strip,
                      float (&out)[kTileRows][kStrip]) {
  typedef float Lanes __attribute__((vector_size(16)));
  Lanes acc[kTileRows][2] = {};
  const float* a0 = a;
  const float* a1 = a0 + k;
  const float* a2 = a1 + k;
  const float* a3 = a2 + k;
  for (int32_t p = 0; p < k; ++p) {
    Lanes b0, b1;
    __builtin_memcpy(&b0, strip + uint64_t(p) * kStrip, sizeof(b0));
    __builtin_memcpy(&b1, strip + uint64_t(p) * kStrip + 4, sizeof(b1));
    const Lanes x0 = {a0[p], a0[p], a0[p], a0[p]}, x1 = {a1[p], a1[p], a1[p], a1[p]};
    const Lanes x2 = {a2[p], a2[p], a2[p], a2[p]}, x3 = {a3[p], a3[p], a3[p], a3[p]};
    acc[0][0] += x0 * b0;
    acc[0][1] += x0 * b1;
    acc[1][0] += x1 * b0;
    acc[1][1] += x1 * b1;
    acc[2][0] += x2 * b0;
    acc[2][1] += x2 * b1;
    acc[3][0] += x3 * b0;
    acc[3][1] += x3 * b1;
  }
  for (int32_t i = 0; i < kTileRows; ++i) {
    for (int32_t j = 0; j < kStrip; ++j) out[i][j] = acc[i][j / 4][j % 4];
  }
}

// c[r * ldc + j] = sum over p of a[r * k + p] * B(p, j), B given as strips.
template <class Acc>
void MultiplyStrips(const Acc* a, const Acc* strips, Acc* c, int32_t rows, int32_t cols, int32_t k,
                    uint64_t ldc) {
  for (int32_t j0 = 0; j0 < cols; j0 += kStrip) {
    const Acc* strip = strips + uint64_t(j0 / kStrip) * k * kStrip;
    const int32_t width = std::min(kStrip, cols - j0);
    for (int32_t r0 = 0; r0 < rows; r0 += kTileRows) {
      const int32_t height = std::min(kTileRows, rows - r0);
      Acc acc[kTileRows][kStrip] = {};
      bool done = false;
      if constexpr (std::is_same_v<Acc, float>) {
        if (height == kTileRows) {
          FloatTile(a + uint64_t(r0) * k, k, strip, acc);
          done = true;
        }
      }
      for (int32_t i = 0; i < height && !done; ++i) {
        const Acc* ai = a + uint64_t(r0 + i) * k;
        for (int32_t p = 0; p < k; ++p) {
          const Acc* b = strip + uint64_t(p) * kStrip;
          for (int32_t j = 0; j < kStrip; ++j) acc[i][j] += ai[p] * b[j];
        }
      }
      for (int32_t i = 0; i < height; ++i) {
        for (int32_t j = 0; j < width; ++j) c[uint64_t(r0 + i) * ldc + j0 + j] = acc[i][j];
      }
    }
  }
}

}  // namespace AscendC::npud_matmul

#endif  // NPUD_LIB_MATMUL_BLOCK_PRODUCT_H_
