// constant_time.h
//
// ConstantTimeEquals: compares secrets (auth tokens) in time that depends on
// their lengths only, not on where they first differ, so a peer cannot
// guess a token byte by byte from how fast it is refused.

#ifndef NPUD_COMMON_CONSTANT_TIME_H_
#define NPUD_COMMON_CONSTANT_TIME_H_

#include "absl/strings/string_view.h"

namespace npud {

inline bool ConstantTimeEquals(absl::string_view a, absl::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace npud

#endif  // NPUD_COMMON_CONSTANT_TIME_H_
