// softmax_baseline.h: the plain loop softmax_bench weighs the kernel against.

#ifndef NPUD_BENCH_SOFTMAX_BASELINE_H_
#define NPUD_BENCH_SOFTMAX_BASELINE_H_

#include <cstdint>

namespace npud::bench {

// y = softmax(x) along each of `rows` rows of `cols` floats: the row's
// maximum, the exponentials of the differences and their sum, then the
// division. Built with -O3 -ffast-math (CMakeLists.txt) so that the
// compiler vectorises all three passes: the best a plain loop does here.
void SoftmaxRows(const float* x, float* y, uint64_t rows, uint32_t cols);

}  // namespace npud::bench

#endif  // NPUD_BENCH_SOFTMAX_BASELINE_H_
