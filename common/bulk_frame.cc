#include "common/bulk_frame.h"

#include "absl/strings/str_format.h"

namespace npud::bulk {
namespace {

constexpr uint32_t kMagic = 0x4b42504e;  // "NPBK" in memory order

// Little-endian fields of `bytes` at `at`, whatever the host's order.
void Store(EncodedHeader& bytes, size_t at, uint64_t value, size_t width) {
  for (size_t i = 0; i < width; ++i) bytes[at + i] = static_cast<uint8_t>(value >> (8 * i));
}
uint64_t Load(const EncodedHeader& bytes, size_t at, size_t width) {
  uint64_t value = 0;
  for (size_t i = 0; i < width; ++i) value |= static_cast<uint64_t>(bytes[at + i]) << (8 * i);
  return value;
}

}  // namespace

EncodedHeader EncodeHeader(const FrameHeader& header) {
  EncodedHeader bytes{};
  Store(bytes, 0, kMagic, 4);
  Store(bytes, 4, static_cast<uint16_t>(header.type), 2);
  Store(bytes, 8, header.transfer, 8);
  Store(bytes, 16, header.offset, 8);
  Store(bytes, 24, header.length, 8);
  return bytes;
}

absl::StatusOr<FrameHeader> DecodeHeader(const EncodedHeader& bytes) {
  if (Load(bytes, 0, 4) != kMagic) {
    return absl::DataLossError("not a bulk frame (wrong magic)");
  }
  const uint64_t type = Load(bytes, 4, 2);
  if (type < static_cast<uint64_t>(FrameType::kHello) ||
      type > static_cast<uint64_t>(FrameType::kSession) || Load(bytes, 6, 2) != 0) {
    return absl::DataLossError(absl::StrFormat("unknown bulk frame type %d", type));
  }
  FrameHeader header;
  header.type = static_cast<FrameType>(type);
  header.transfer = Load(bytes, 8, 8);
  header.offset = Load(bytes, 16, 8);
  header.length = Load(bytes, 24, 8);
  return header;
}

absl::StatusOr<FrameHeader> ReadHeader(ByteStream& stream) {
  EncodedHeader bytes;
  if (absl::Status read = stream.ReadFully(bytes.data(), bytes.size()); !read.ok()) return read;
  return DecodeHeader(bytes);
}

}  // namespace npud::bulk
