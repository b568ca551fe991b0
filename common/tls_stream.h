// tls_stream.h
//
// TLS ByteStreams over connected TCP sockets, with OpenSSL: the bulk
// channel's encryption when npud runs with --tls_cert (docs/design.md
// "Bulk channel"). The certificates and checks are those of the session
// stream (common/tls_config.h): the client verifies npud's certificate
// against NPUD_TLS_CA and its name; with --tls_client_ca, npud requires a
// client certificate that CA signed.
//
// The streams keep ByteStream's promise that one thread reads while another
// writes although an OpenSSL connection is not thread-safe: every OpenSSL
// call runs under one mutex on a non-blocking socket, and a thread that has
// to wait for the socket waits outside the mutex.

#ifndef NPUD_COMMON_TLS_STREAM_H_
#define NPUD_COMMON_TLS_STREAM_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/byte_stream.h"
#include "common/tls_config.h"
#include "common/unique_fd.h"

struct ssl_ctx_st;  // OpenSSL's SSL_CTX, kept out of this header

namespace npud {

// The certificates, keys and checks of one side, parsed once and shared by
// all of its connections. Immutable after creation, so thread-safe.
class TlsContext {
 public:
  // InvalidArgument when a PEM text does not parse or the key does not
  // match the certificate.
  static absl::StatusOr<std::shared_ptr<const TlsContext>> ForServer(const ServerTls& tls);
  static absl::StatusOr<std::shared_ptr<const TlsContext>> ForClient(const ClientTls& tls);
  ~TlsContext();
  TlsContext(const TlsContext&) = delete;
  TlsContext& operator=(const TlsContext&) = delete;

  ssl_ctx_st* get() const { return ctx_; }
  // ClientTls::server_name ("" for the server's context).
  const std::string& server_name() const { return server_name_; }

 private:
  TlsContext(ssl_ctx_st* ctx, std::string server_name);
  ssl_ctx_st* const ctx_;
  const std::string server_name_;
};

// The server's end: the handshake runs within the first read, so the read
// timeout bounds it and Shutdown() interrupts it; its failures are that
// read's error, saying "TLS handshake".
std::unique_ptr<ByteStream> MakeTlsServerStream(UniqueFd socket,
                                                std::shared_ptr<const TlsContext> context);

// The client's end: handshakes within `timeout`, checking the server's
// certificate for the context's server name or else `host` (a DNS name or
// an IP address). Unavailable saying why the handshake failed.
absl::StatusOr<std::unique_ptr<ByteStream>> TlsConnect(UniqueFd socket,
                                                       std::shared_ptr<const TlsContext> context,
                                                       const std::string& host,
                                                       absl::Duration timeout);

}  // namespace npud

#endif  // NPUD_COMMON_TLS_STREAM_H_
