// tls_config.h
//
// Which TLS npud's TCP listeners and their clients use, as PEM texts read
// from files, for both TLS stacks npud runs: gRPC's (the session stream,
// common/grpc_tls.h) and OpenSSL's (the bulk channel, common/tls_stream.h).
//
// Server: --tls_cert / --tls_key (its certificate chain and key) turn TLS on
// for every TCP listener; --tls_client_ca also requires each client to
// present a certificate that CA signed (mutual TLS). Unix sockets never use
// TLS: there the kernel names the peer (SO_PEERCRED).
//
// Client (libacl_rt, npuctl): a TCP address is reached over TLS when
// NPUD_TLS_CA names the CA file that signed npud's certificate;
// NPUD_TLS_CERT / NPUD_TLS_KEY add a client certificate for mutual TLS, and
// NPUD_TLS_SERVER_NAME replaces the host name checked against npud's
// certificate (for addresses by IP or through a tunnel).

#ifndef NPUD_COMMON_TLS_CONFIG_H_
#define NPUD_COMMON_TLS_CONFIG_H_

#include <string>

#include "absl/status/statusor.h"

namespace npud {

// The daemon's side: PEM texts, all empty for no TLS.
struct ServerTls {
  std::string cert_chain;
  std::string private_key;
  std::string client_ca;  // non-empty: client certificates required
  bool enabled() const { return !cert_chain.empty(); }
};

// Reads the three files (client_ca_file may be empty). InvalidArgument if
// only one of cert and key is given or a file cannot be read.
absl::StatusOr<ServerTls> LoadServerTls(const std::string& cert_file, const std::string& key_file,
                                        const std::string& client_ca_file);

// The client's side: PEM texts, `ca` empty for no TLS.
struct ClientTls {
  std::string ca;
  std::string cert_chain;  // with private_key: mutual TLS
  std::string private_key;
  std::string server_name;  // empty: the host of the address
  bool enabled() const { return !ca.empty(); }
};

// From the NPUD_TLS_* environment. InvalidArgument naming the variable whose
// file cannot be read, or when only one of NPUD_TLS_CERT and NPUD_TLS_KEY
// is set.
absl::StatusOr<ClientTls> ClientTlsFromEnv();

// Whether the client environment asks for TLS (NPUD_TLS_CA is set).
bool ClientTlsRequested();

// Whether a TCP listen address ("host:port") is on the loopback interface
// only: 127.0.0.0/8, ::1 or localhost.
bool IsLoopbackListenAddress(const std::string& host_port);

}  // namespace npud

#endif  // NPUD_COMMON_TLS_CONFIG_H_
