// bulk_frame.h
//
// The framing of npud's own TCP port (--bulk_listen). Mostly the bulk
// channel: the TCP connection beside a remote session that carries the
// bytes of large copies between host memory and device memory, so they
// never pass through protobuf or the session's stream (docs/design.md,
// "Bulk channel"). A connection whose first header is kSession carries a
// framed session instead.
//
// Every frame starts with a 32-byte header, little endian: magic "NPBK"
// (u32), type (u16), zero (u16), transfer id (u64), offset (u64), length
// (u64). What follows depends on the type:
//
//   kHello    client → npud  transfer = session id; `length` bytes of key
//   kWelcome  npud → client  nothing: the channel belongs to the session
//   kPull     npud → client  nothing: send bytes [offset, offset+length) of
//                            host-to-device transfer `transfer` now
//   kData     both ways      `length` bytes at `offset` of the transfer
//                            (client → npud: pulled bytes; npud → client:
//                            device-to-host bytes)
//   kCancel   npud → client  nothing: the transfer's copy was refused, its
//                            bytes will never be pulled
//   kSession  client → npud  nothing (all fields zero): this connection is
//                            not a bulk channel but a framed session; the
//                            local protocol's frames follow both ways
//                            (common/stream_frame.h), beginning with the
//                            client's hello
//
// npud only ever receives bytes it asked for, into the device memory of the
// copy, so it needs no buffer of its own for them.

#ifndef NPUD_COMMON_BULK_FRAME_H_
#define NPUD_COMMON_BULK_FRAME_H_

#include <array>
#include <cstddef>
#include <cstdint>

#include "absl/status/statusor.h"
#include "common/byte_stream.h"

namespace npud::bulk {

constexpr size_t kHeaderBytes = 32;
constexpr size_t kKeyBytes = 32;
// Bytes of one kData frame at most: large copies are cut into frames this
// big so the two directions' control frames are never far behind.
constexpr uint64_t kMaxDataFrameBytes = 4 << 20;

enum class FrameType : uint16_t {
  kHello = 1,
  kWelcome = 2,
  kPull = 3,
  kData = 4,
  kCancel = 5,
  kSession = 6,
};

struct FrameHeader {
  FrameType type = FrameType::kData;
  uint64_t transfer = 0;
  uint64_t offset = 0;
  uint64_t length = 0;
};

using EncodedHeader = std::array<uint8_t, kHeaderBytes>;

EncodedHeader EncodeHeader(const FrameHeader& header);
// DataLoss for a wrong magic, an unknown type or a nonzero reserved field.
absl::StatusOr<FrameHeader> DecodeHeader(const EncodedHeader& bytes);
// Reads the next header from `stream` and decodes it (ByteStream::ReadFully's
// errors, or DecodeHeader's).
absl::StatusOr<FrameHeader> ReadHeader(ByteStream& stream);

}  // namespace npud::bulk

#endif  // NPUD_COMMON_BULK_FRAME_H_
