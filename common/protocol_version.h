// protocol_version.h
//
// Named protocol versions of the npud wire protocol (proto/VERSIONS.md keeps
// the log). Code compares against these names, never against literals.

#ifndef NPUD_COMMON_PROTOCOL_VERSION_H_
#define NPUD_COMMON_PROTOCOL_VERSION_H_

#include <cstdint>

namespace npud::protocol_version {

// Session stream, batched calls, inline chunked copies, DataChunk replies.
inline constexpr uint32_t kInitial = 1;

inline constexpr uint32_t kMinimum = kInitial;
inline constexpr uint32_t kCurrent = kInitial;

}  // namespace npud::protocol_version

#endif  // NPUD_COMMON_PROTOCOL_VERSION_H_
