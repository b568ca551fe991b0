// scalar_min_max.h: min and max of two scalars at global scope, as bisheng provides
// them to AscendC code as builtins (asc-devkit's softmaxflashv3 and
// batch_matmul_tensor_api examples call min(a, b) unqualified). Templates, so that a
// user's own non-template min or max is preferred, and std::min stays std::min.
#ifndef NPUD_ASCENDC_SCALAR_MIN_MAX_H_
#define NPUD_ASCENDC_SCALAR_MIN_MAX_H_

template <class T>
constexpr T min(const T a, const T b) {
  return b < a ? b : a;
}
template <class T>
constexpr T max(const T a, const T b) {
  return a < b ? b : a;
}

#endif  // NPUD_ASCENDC_SCALAR_MIN_MAX_H_
