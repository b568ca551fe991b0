#include "common/grpc/grpc_tls.h"

#include "grpcpp/grpcpp.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/security/server_credentials.h"

namespace npud {

std::shared_ptr<grpc::ServerCredentials> ServerCredentials(const ServerTls& tls) {
  if (!tls.enabled()) return grpc::InsecureServerCredentials();
  grpc::SslServerCredentialsOptions options(
      tls.client_ca.empty() ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                            : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  options.pem_root_certs = tls.client_ca;
  options.pem_key_cert_pairs.push_back({tls.private_key, tls.cert_chain});
  return grpc::SslServerCredentials(options);
}

absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> ClientCredentialsFromEnv(
    grpc::ChannelArguments* args) {
  absl::StatusOr<ClientTls> tls = ClientTlsFromEnv();
  if (!tls.ok()) return tls.status();
  if (!tls->enabled()) return grpc::InsecureChannelCredentials();
  grpc::SslCredentialsOptions options;
  options.pem_root_certs = tls->ca;
  options.pem_cert_chain = tls->cert_chain;
  options.pem_private_key = tls->private_key;
  if (!tls->server_name.empty()) args->SetSslTargetNameOverride(tls->server_name);
  return grpc::SslCredentials(options);
}

}  // namespace npud
