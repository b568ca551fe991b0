// lib/matmul/copy_callback.h: an operand's panel read through a MatmulCallBackFunc
// copy (CopyA1 / CopyB1) by the CPU Matmul (lib/matmul_intf.h).
//
// The Matmul asks for one base block at a time along K (baseK wide; the callback gets
// the block's indices and sizes), hands the callback a zeroed L1 tile, and reads back
// what the callback left there in NZ (lib/matmul/matrix_view.h: fractals of 32 bytes
// over the tile's stored rows rounded up to 16), as the NPU's Matmul would go on
// from L1.
#ifndef NPUD_LIB_MATMUL_COPY_CALLBACK_H_
#define NPUD_LIB_MATMUL_COPY_CALLBACK_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernel_operator.h"
#include "lib/matmul/matrix_view.h"

namespace AscendC::npud_matmul {

// `lines` lines (A's rows or B's columns) of k values as rows of Acc at `panel`.
// `line_major`: the tile stores a line as a row (A not transposed, B transposed).
// copy(l1, slice, kk) runs the callback for the baseK slice `slice` of kk values.
template <class T, class Acc, class Copy>
void PanelFromCallback(Acc* panel, int32_t lines, int32_t k, int32_t base_k, bool line_major,
                       Copy&& copy, std::vector<uint8_t>& scratch) {
  constexpr uint64_t c0 = sizeof(T) >= 32 ? 1 : 32 / sizeof(T);
  for (int32_t p0 = 0, slice = 0; p0 < k; p0 += base_k, ++slice) {
    const int32_t kk = std::min(base_k, k - p0);
    const int32_t rows = line_major ? lines : kk, cols = line_major ? kk : lines;
    const MatrixPlace tile = NzPlace(rows, c0);
    scratch.assign(tile.rows_pad * AlignUp(cols, c0) * sizeof(T), 0);
    copy(LocalTensor<int8_t>::FromBuffer(TPosition::C1, reinterpret_cast<int8_t*>(scratch.data()),
                                         static_cast<uint32_t>(scratch.size())),
         slice, kk);
    const T* t = reinterpret_cast<const T*>(scratch.data());
    for (int32_t line = 0; line < lines; ++line) {
      for (int32_t p = 0; p < kk; ++p) {
        panel[uint64_t(line) * k + p0 + p] =
            static_cast<Acc>(t[line_major ? tile.Index(line, p) : tile.Index(p, line)]);
      }
    }
  }
}

}  // namespace AscendC::npud_matmul

#endif  // NPUD_LIB_MATMUL_COPY_CALLBACK_H_
