// tcp_dial.h
//
// DialNpudPort: a connection to npud's own TCP port (daemon/tcp_server.h),
// plain or in TLS as the client's environment asks (NPUD_TLS_CA,
// NPUD_TLS_CERT, NPUD_TLS_KEY, NPUD_TLS_SERVER_NAME; common/tls_config.h).
// The bulk channel and framed sessions both start here.

#ifndef NPUD_CLIENT_TRANSPORT_TCP_DIAL_H_
#define NPUD_CLIENT_TRANSPORT_TCP_DIAL_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/byte_stream.h"

namespace npud::client {

// Connects (TCP_NODELAY) and, with TLS, handshakes, all within `timeout`.
// Unavailable saying why when npud cannot be reached or the handshake
// fails; InvalidArgument when the TLS files cannot be used.
absl::StatusOr<std::unique_ptr<ByteStream>> DialNpudPort(const std::string& host, int port,
                                                         absl::Duration timeout);

}  // namespace npud::client

#endif  // NPUD_CLIENT_TRANSPORT_TCP_DIAL_H_
