// wire_constants.h
//
// Sizes and names both ends of the npud protocol must agree on, in one place.

#ifndef NPUD_COMMON_WIRE_CONSTANTS_H_
#define NPUD_COMMON_WIRE_CONSTANTS_H_

#include <cstddef>

namespace npud {

// Bulk bytes inside messages (host-to-device writes, device-to-host
// DataChunks, kernel binaries being loaded) travel in pieces of at most this
// size: no message comes near protobuf's 2 GiB limit, and a large copy never
// holds the session stream for long.
inline constexpr size_t kDataChunkBytes = size_t{1} << 20;

// The gRPC metadata key that carries the admin token on Admin calls.
inline constexpr char kAdminTokenKey[] = "x-npud-admin-token";

}  // namespace npud

#endif  // NPUD_COMMON_WIRE_CONSTANTS_H_
