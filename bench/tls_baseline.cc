#include "bench/tls_baseline.h"

#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "bench/bench_support.h"

namespace npud::bench {
namespace {

bool ReadAll(SSL* ssl, char* data, size_t size) {
  for (size_t got = 0; got < size;) {
    const int n =
        SSL_read(ssl, data + got, static_cast<int>(std::min<size_t>(size - got, 1 << 30)));
    if (n <= 0) return false;
    got += static_cast<size_t>(n);
  }
  return true;
}

SSL_CTX* Context(const SSL_METHOD* method) {
  SSL_CTX* ctx = SSL_CTX_new(method);
  SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);
  return ctx;
}

// The child: accepts TLS on `fd` and acknowledges reps + 1 messages.
[[noreturn]] void Receive(int fd, size_t size, int reps, const std::string& cert_dir) {
  SSL_CTX* ctx = Context(TLS_server_method());
  if (SSL_CTX_use_certificate_chain_file(ctx, (cert_dir + "/server.crt").c_str()) != 1 ||
      SSL_CTX_use_PrivateKey_file(ctx, (cert_dir + "/server.key").c_str(), SSL_FILETYPE_PEM) != 1) {
    _exit(1);
  }
  SSL* ssl = SSL_new(ctx);
  SSL_set_fd(ssl, fd);
  if (SSL_accept(ssl) != 1) _exit(1);
  std::vector<char> buffer(size);
  for (int i = 0; i < reps + 1; ++i) {
    if (!ReadAll(ssl, buffer.data(), size) || SSL_write(ssl, "k", 1) != 1) _exit(1);
  }
  _exit(0);
}

}  // namespace

double TlsStreamGbps(size_t size, int reps, const std::string& cert_dir) {
  int pair[2];
  TcpLoopbackPair(pair);
  const pid_t child = fork();
  if (child == 0) {
    close(pair[0]);
    Receive(pair[1], size, reps, cert_dir);
  }
  close(pair[1]);
  SSL_CTX* ctx = Context(TLS_client_method());
  SSL_CTX_load_verify_locations(ctx, (cert_dir + "/ca.crt").c_str(), nullptr);
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
  SSL* ssl = SSL_new(ctx);
  X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), "127.0.0.1");
  SSL_set_fd(ssl, pair[0]);
  double gbps = 0;
  if (SSL_connect(ssl) == 1) {
    const std::vector<char> data(size, 7);
    char ack;
    auto send = [&] {
      return SSL_write(ssl, data.data(), static_cast<int>(size)) == static_cast<int>(size) &&
             ReadAll(ssl, &ack, 1);
    };
    bool ok = send();
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; ok && i < reps; ++i) ok = send();
    if (ok) gbps = static_cast<double>(size) * reps / SecondsSince(start) / 1e9;
  }
  SSL_free(ssl);
  SSL_CTX_free(ctx);
  close(pair[0]);
  waitpid(child, nullptr, 0);
  return gbps;
}

}  // namespace npud::bench
