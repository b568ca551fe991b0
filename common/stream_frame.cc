#include "common/stream_frame.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "common/frame_io.h"
#include "common/status_macros.h"

namespace npud {

absl::Status ReadStreamFrame(ByteStream& stream, std::string* payload, uint32_t max_bytes,
                             FrameAllowance* allowance) {
  uint8_t header[kFrameHeaderBytes];
  NPUD_RETURN_IF_ERROR(stream.ReadFully(header, sizeof(header)));
  const uint32_t length = static_cast<uint32_t>(header[0]) | static_cast<uint32_t>(header[1]) << 8 |
                          static_cast<uint32_t>(header[2]) << 16 |
                          static_cast<uint32_t>(header[3]) << 24;
  if (length > max_bytes || header[4] != 0 || header[5] != 0 || header[6] != 0 || header[7] != 0) {
    return absl::DataLossError(absl::StrCat("malformed frame header (length ", length, ", at most ",
                                            max_bytes, ", no descriptors)"));
  }
  size_t have = 0;
  payload->resize(std::min<size_t>(length, kFrameFirstStep));
  while (true) {
    absl::Status read = stream.ReadFully(payload->data() + have, payload->size() - have);
    if (absl::IsOutOfRange(read)) return absl::DataLossError("the stream ended inside a frame");
    NPUD_RETURN_IF_ERROR(read);
    have = payload->size();
    if (have == length) break;
    const size_t next = std::min<size_t>(length, 2 * have);
    if (allowance != nullptr) NPUD_RETURN_IF_ERROR(allowance->Grow(next, length));
    payload->resize(next);
  }
  return absl::OkStatus();
}

absl::Status WriteStreamFrame(ByteStream& stream, std::string* frame) {
  SealFrame(frame);
  const iovec piece = Piece(frame->data(), frame->size());
  return stream.WriteAll(absl::MakeConstSpan(&piece, 1));
}

}  // namespace npud
