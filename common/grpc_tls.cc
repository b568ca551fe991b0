#include "common/grpc_tls.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/security/server_credentials.h"

namespace npud {
namespace {

absl::StatusOr<std::string> ReadPem(const std::string& what, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream content;
  content << in.rdbuf();
  if (!in || content.str().empty()) {
    return absl::InvalidArgumentError(absl::StrCat("cannot read ", what, " ", path));
  }
  return content.str();
}

// A certificate chain and its private key, each named by `*_what` in errors.
struct PemPair {
  std::string cert_chain;
  std::string private_key;
};
absl::StatusOr<PemPair> ReadPemPair(const std::string& cert_what, const std::string& cert_path,
                                    const std::string& key_what, const std::string& key_path) {
  absl::StatusOr<std::string> cert = ReadPem(cert_what, cert_path);
  if (!cert.ok()) return cert.status();
  absl::StatusOr<std::string> key = ReadPem(key_what, key_path);
  if (!key.ok()) return key.status();
  return PemPair{*std::move(cert), *std::move(key)};
}

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

}  // namespace

absl::StatusOr<ServerTls> LoadServerTls(const std::string& cert_file, const std::string& key_file,
                                        const std::string& client_ca_file) {
  ServerTls tls;
  if (cert_file.empty() && key_file.empty()) {
    if (!client_ca_file.empty()) {
      return absl::InvalidArgumentError("--tls_client_ca needs --tls_cert and --tls_key");
    }
    return tls;
  }
  if (cert_file.empty() || key_file.empty()) {
    return absl::InvalidArgumentError("--tls_cert and --tls_key go together");
  }
  absl::StatusOr<PemPair> pair = ReadPemPair("--tls_cert", cert_file, "--tls_key", key_file);
  if (!pair.ok()) return pair.status();
  tls.cert_chain = std::move(pair->cert_chain);
  tls.private_key = std::move(pair->private_key);
  if (!client_ca_file.empty()) {
    absl::StatusOr<std::string> ca = ReadPem("--tls_client_ca", client_ca_file);
    if (!ca.ok()) return ca.status();
    tls.client_ca = *std::move(ca);
  }
  return tls;
}

std::shared_ptr<grpc::ServerCredentials> ServerCredentials(const ServerTls& tls) {
  if (!tls.enabled()) return grpc::InsecureServerCredentials();
  grpc::SslServerCredentialsOptions options(
      tls.client_ca.empty() ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                            : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  options.pem_root_certs = tls.client_ca;
  options.pem_key_cert_pairs.push_back({tls.private_key, tls.cert_chain});
  return grpc::SslServerCredentials(options);
}

bool ClientTlsRequested() { return !Env("NPUD_TLS_CA").empty(); }

absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> ClientCredentialsFromEnv(
    grpc::ChannelArguments* args) {
  const std::string ca_file = Env("NPUD_TLS_CA");
  if (ca_file.empty()) return grpc::InsecureChannelCredentials();
  grpc::SslCredentialsOptions options;
  absl::StatusOr<std::string> ca = ReadPem("NPUD_TLS_CA", ca_file);
  if (!ca.ok()) return ca.status();
  options.pem_root_certs = *std::move(ca);
  const std::string cert_file = Env("NPUD_TLS_CERT");
  const std::string key_file = Env("NPUD_TLS_KEY");
  if (cert_file.empty() != key_file.empty()) {
    return absl::InvalidArgumentError("NPUD_TLS_CERT and NPUD_TLS_KEY go together");
  }
  if (!cert_file.empty()) {
    absl::StatusOr<PemPair> pair =
        ReadPemPair("NPUD_TLS_CERT", cert_file, "NPUD_TLS_KEY", key_file);
    if (!pair.ok()) return pair.status();
    options.pem_cert_chain = std::move(pair->cert_chain);
    options.pem_private_key = std::move(pair->private_key);
  }
  if (const std::string name = Env("NPUD_TLS_SERVER_NAME"); !name.empty()) {
    args->SetSslTargetNameOverride(name);
  }
  return grpc::SslCredentials(options);
}

bool IsLoopbackListenAddress(const std::string& host_port) {
  const size_t colon = host_port.rfind(':');
  std::string host = colon == std::string::npos ? host_port : host_port.substr(0, colon);
  if (absl::StartsWith(host, "[") && absl::EndsWith(host, "]")) {
    host = host.substr(1, host.size() - 2);
  }
  return host == "localhost" || host == "::1" || absl::StartsWith(host, "127.");
}

}  // namespace npud
