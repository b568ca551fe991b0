// grpc_tls.h
//
// gRPC credentials for the TLS of common/tls_config.h: the daemon's for its
// TCP listeners, the clients' (libacl_rt, npuctl) from NPUD_TLS_*.
//
// gRPC types appear only as forward declarations, so this header can be
// included without pulling in grpcpp.

#ifndef NPUD_COMMON_GRPC_GRPC_TLS_H_
#define NPUD_COMMON_GRPC_GRPC_TLS_H_

#include <memory>

#include "absl/status/statusor.h"
#include "common/tls_config.h"

namespace grpc {
class ChannelArguments;
class ChannelCredentials;
class ServerCredentials;
}  // namespace grpc

namespace npud {

std::shared_ptr<grpc::ServerCredentials> ServerCredentials(const ServerTls& tls);

// Insecure credentials when NPUD_TLS_CA is unset, else TLS (and the
// server-name override into `args`); errors of ClientTlsFromEnv().
absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> ClientCredentialsFromEnv(
    grpc::ChannelArguments* args);

}  // namespace npud

#endif  // NPUD_COMMON_GRPC_GRPC_TLS_H_
