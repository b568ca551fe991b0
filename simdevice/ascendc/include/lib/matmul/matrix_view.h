// lib/matmul/matrix_view.h: how the CPU Matmul (lib/matmul_intf.h) finds an element of
// a stored matrix in the formats of CubeFormat, for reading A and B and for writing C.
//
//   ND, VECTOR   row-major, rows `ld` elements apart
//   ND_ALIGN     row-major, rows padded to 32 bytes (the caller gives that `ld`)
//   NZ           fractal columns: element (r, c) at ((c / c0) * rowsPad + r) * c0 + c % c0,
//                c0 elements of 32 bytes (C: 16, or 8 for float with channel split),
//                rowsPad the matrix's rows rounded up to 16
#ifndef NPUD_LIB_MATMUL_MATRIX_VIEW_H_
#define NPUD_LIB_MATMUL_MATRIX_VIEW_H_

#include <cstdint>

namespace AscendC::npud_matmul {

struct MatrixPlace {
  bool nz = false;
  uint64_t ld = 0;        // ND: elements between rows
  uint64_t rows_pad = 0;  // NZ: rows of one fractal column
  uint64_t c0 = 1;        // NZ: elements of a fractal row

  uint64_t Index(uint64_t r, uint64_t c) const {
    return nz ? ((c / c0) * rows_pad + r) * c0 + c % c0 : r * ld + c;
  }
};

inline uint64_t AlignUp(uint64_t value, uint64_t to) {
  return to == 0 ? value : (value + to - 1) / to * to;
}

// A place in ND (rows `ld` apart) or in NZ for a matrix of `rows` rows with
// `c0` elements to a fractal row.
inline MatrixPlace NdPlace(uint64_t ld) { return MatrixPlace{false, ld, 0, 1}; }
inline MatrixPlace NzPlace(uint64_t rows, uint64_t c0) {
  return MatrixPlace{true, 0, AlignUp(rows, 16), c0};
}

}  // namespace AscendC::npud_matmul

#endif  // NPUD_LIB_MATMUL_MATRIX_VIEW_H_
