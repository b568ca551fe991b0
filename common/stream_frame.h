// stream_frame.h
//
// The local protocol's frames (common/frame_io.h: an 8-byte header, then a
// serialized Session message) over a ByteStream, without descriptors: how
// framed sessions travel on npud's TCP port, plain or in TLS
// (docs/design.md, "Framed sessions on TCP"). A connection opens with a
// bulk header of type kSession (common/bulk_frame.h), then carries these
// frames both ways.

#ifndef NPUD_COMMON_STREAM_FRAME_H_
#define NPUD_COMMON_STREAM_FRAME_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "common/byte_stream.h"
#include "common/frame_io.h"

namespace npud {

// Reads the next frame's payload into *payload. A frame announcing more
// than `max_bytes` or any descriptor is DataLoss before anything is
// allocated for it, and the payload grows only as its bytes arrive, past
// kFrameFirstStep only as `allowance` (if any) grants.
// ByteStream::ReadFully's errors otherwise (OutOfRange at a clean end).
absl::Status ReadStreamFrame(ByteStream& stream, std::string* payload, uint32_t max_bytes,
                             FrameAllowance* allowance = nullptr);

// `*frame` starts with kFrameHeaderBytes of room, then the payload
// (SealFrame fills in the header); writes it whole.
absl::Status WriteStreamFrame(ByteStream& stream, std::string* frame);

}  // namespace npud

#endif  // NPUD_COMMON_STREAM_FRAME_H_
