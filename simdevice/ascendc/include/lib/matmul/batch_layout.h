// lib/matmul/batch_layout.h: where batch j of a batch matmul's operand starts and how
// far apart its rows are, for the layouts MatmulType names (IterateBatch,
// IterateNBatch in lib/matmul_intf.h).
//
// The layout axes are the tiling's (SetALayout / SetBLayout / SetCLayout: B, S, N, G,
// D; C's S1 and S2 for S and D). One batch is an S x D matrix, and batches count over
// the outer axes in order:
//   BSNGD   [B, S, N, G, D]: batch j is (b, h) with h counting N*G: at b*S*N*G*D + h*D,
//           rows N*G*D apart
//   SBNGD   [S, B, N, G, D]: batch j at j*D, rows B*N*G*D apart
//   BNGS1S2 [B, N, G, S, D]: batch j at j*S*D, rows D apart
//   NORMAL  [batch, rows, cols]: batch j at j*stride (the matrix size unless given),
//           rows `cols` apart
#ifndef NPUD_LIB_MATMUL_BATCH_LAYOUT_H_
#define NPUD_LIB_MATMUL_BATCH_LAYOUT_H_

#include <cstdint>

#include "lib/matmul/matmul_config.h"

namespace AscendC::npud_matmul {

struct BatchAxes {
  int64_t b = 1, s = 1, n = 1, g = 1, d = 1;
};

struct BatchView {
  uint64_t start = 0;  // elements from the operand's first
  uint64_t ld = 0;     // elements between rows
};

// `cols` and `stride` are the NORMAL layout's row length and matrix step (0: rows*cols).
inline BatchView BatchOperand(LayoutMode layout, const BatchAxes& x, uint64_t j, uint64_t rows,
                              uint64_t cols, uint64_t stride = 0) {
  const uint64_t heads = uint64_t(x.n * x.g);
  switch (layout) {
    case LayoutMode::BSNGD: {
      const uint64_t b = heads == 0 ? 0 : j / heads, h = heads == 0 ? 0 : j % heads;
      return {b * uint64_t(x.s) * heads * x.d + h * x.d, heads * x.d};
    }
    case LayoutMode::SBNGD:
      return {j * uint64_t(x.d), uint64_t(x.b) * heads * x.d};
    case LayoutMode::BNGS1S2:
      return {j * uint64_t(x.s) * x.d, uint64_t(x.d)};
    default:
      return {j * (stride != 0 ? stride : rows * cols), cols};
  }
}

}  // namespace AscendC::npud_matmul

#endif  // NPUD_LIB_MATMUL_BATCH_LAYOUT_H_
