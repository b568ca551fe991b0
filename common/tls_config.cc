#include "common/tls_config.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace npud {
namespace {

// The reason goes with the path: a key the process's uid may not read (a
// container user, a Secret's mode) must not look like a missing file.
absl::StatusOr<std::string> ReadPem(const std::string& what, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot read ", what, " ", path, ": ", std::strerror(errno), " (as uid ", geteuid(), ")"));
  }
  std::stringstream content;
  content << in.rdbuf();
  if (!in || content.str().empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot read ", what, " ", path, ": empty or not a file"));
  }
  return content.str();
}

// Reads a certificate chain and its private key into *cert and *key, each
// named by `*_what` in errors; both paths empty reads nothing.
absl::Status ReadPemPair(const std::string& cert_what, const std::string& cert_path,
                         const std::string& key_what, const std::string& key_path,
                         std::string* cert, std::string* key) {
  if (cert_path.empty() && key_path.empty()) return absl::OkStatus();
  if (cert_path.empty() || key_path.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(cert_what, " and ", key_what, " go together"));
  }
  absl::StatusOr<std::string> cert_pem = ReadPem(cert_what, cert_path);
  if (!cert_pem.ok()) return cert_pem.status();
  absl::StatusOr<std::string> key_pem = ReadPem(key_what, key_path);
  if (!key_pem.ok()) return key_pem.status();
  *cert = *std::move(cert_pem);
  *key = *std::move(key_pem);
  return absl::OkStatus();
}

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

}  // namespace

absl::StatusOr<ServerTls> LoadServerTls(const std::string& cert_file, const std::string& key_file,
                                        const std::string& client_ca_file) {
  ServerTls tls;
  if (cert_file.empty() && key_file.empty() && !client_ca_file.empty()) {
    return absl::InvalidArgumentError("--tls_client_ca needs --tls_cert and --tls_key");
  }
  if (absl::Status read = ReadPemPair("--tls_cert", cert_file, "--tls_key", key_file,
                                      &tls.cert_chain, &tls.private_key);
      !read.ok()) {
    return read;
  }
  if (!client_ca_file.empty()) {
    absl::StatusOr<std::string> ca = ReadPem("--tls_client_ca", client_ca_file);
    if (!ca.ok()) return ca.status();
    tls.client_ca = *std::move(ca);
  }
  return tls;
}

bool ClientTlsRequested() { return !Env("NPUD_TLS_CA").empty(); }

absl::StatusOr<ClientTls> ClientTlsFromEnv() {
  ClientTls tls;
  const std::string ca_file = Env("NPUD_TLS_CA");
  if (ca_file.empty()) return tls;
  absl::StatusOr<std::string> ca = ReadPem("NPUD_TLS_CA", ca_file);
  if (!ca.ok()) return ca.status();
  tls.ca = *std::move(ca);
  if (absl::Status read = ReadPemPair("NPUD_TLS_CERT", Env("NPUD_TLS_CERT"), "NPUD_TLS_KEY",
                                      Env("NPUD_TLS_KEY"), &tls.cert_chain, &tls.private_key);
      !read.ok()) {
    return read;
  }
  tls.server_name = Env("NPUD_TLS_SERVER_NAME");
  return tls;
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
