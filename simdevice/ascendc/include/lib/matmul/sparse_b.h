// lib/matmul/sparse_b.h: the B of a sparse Matmul (SparseMatmulType, SetSparseIndex)
// expanded to its K positions for the CPU Matmul (lib/matmul_intf.h).
//
// B is stored transposed and dense, N x K/2: for every group of four K positions of a
// row, two values, at positions i1 and i2 + 1 of the group. The 2-bit indices i1, i2
// of a row are packed four to a byte, the first in the low bits, into an N x K/8 byte
// matrix stored in NZ (fractals of 16 rows x 8 bytes, over N rounded up to 16). The
// other two K positions of a group are zero.
#ifndef NPUD_LIB_MATMUL_SPARSE_B_H_
#define NPUD_LIB_MATMUL_SPARSE_B_H_

#include <algorithm>
#include <cstdint>

#include "lib/matmul/matrix_view.h"

namespace AscendC::npud_matmul {

// Columns [n0, n0 + cols) of B over K positions [k0, k0 + k) (k0 a multiple of 4) as
// rows of `k` values of Acc at `panel`; B is `org_n` x `org_k` before densifying.
template <class Acc, class TB>
void ExpandSparseB(Acc* panel, const TB* dense, const uint8_t* index, uint64_t org_n,
                   uint64_t org_k, int32_t n0, int32_t cols, int32_t k0, int32_t k) {
  std::fill(panel, panel + uint64_t(cols) * k, Acc{});
  const uint64_t ld = org_k / 2, rows_pad = AlignUp(org_n, 16);
  for (int32_t j = 0; j < cols; ++j) {
    const uint64_t n = uint64_t(n0) + j;
    for (int32_t d = k0 / 2; d < (k0 + k) / 2; ++d) {
      const uint64_t byte = uint64_t(d) / 4;
      const uint8_t packed = index[((byte / 8) * rows_pad + n) * 8 + byte % 8];
      const int32_t i = (packed >> (2 * (d % 4))) & 3;
      const int32_t at = (d / 2) * 4 + (d % 2 == 0 ? i : i + 1);
      panel[uint64_t(j) * k + (at - k0)] = static_cast<Acc>(dense[n * ld + d]);
    }
  }
}

}  // namespace AscendC::npud_matmul

#endif  // NPUD_LIB_MATMUL_SPARSE_B_H_
