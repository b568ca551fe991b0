// type_traits.h: the compile-time helpers AscendC kernels use.
//
//   IsSameType<T, U>::value        std::is_same
//   Conditional<b, T, F>::type     std::conditional
//   AscendC::Std::...              upstream's std-like namespace (is_same_v,
//                                  enable_if, remove_cv, min, ...): the C++ standard
//                                  library's, on the CPU
#ifndef NPUD_ASCENDC_TYPE_TRAITS_H_
#define NPUD_ASCENDC_TYPE_TRAITS_H_

#include <algorithm>
#include <type_traits>
#include <utility>

namespace AscendC {

template <class T, class U>
struct IsSameType : std::is_same<T, U> {};

template <bool condition, class T, class F>
struct Conditional : std::conditional<condition, T, F> {};

namespace Std {
using namespace std;  // NOLINT(build/namespaces): Std is the standard library on the CPU
}  // namespace Std

}  // namespace AscendC

#endif  // NPUD_ASCENDC_TYPE_TRAITS_H_
