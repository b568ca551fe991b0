#include "common/tls_stream.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/functional/function_ref.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "common/status_macros.h"

namespace npud {
namespace {

// OpenSSL writes to the socket with write(), which raises SIGPIPE when the
// peer has closed it — a signal that ends the application by default, and
// libacl_rt runs inside applications. While one SSL call runs the calling
// thread blocks SIGPIPE, and one the call raised is taken before unblocking
// (the write itself then fails with EPIPE, which is reported).
class NoSigpipe {
 public:
  NoSigpipe() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    sigset_t pending;
    sigpending(&pending);
    pending_before_ = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~NoSigpipe() {
    if (!pending_before_) {
      sigset_t pending;
      sigpending(&pending);
      if (sigismember(&pending, SIGPIPE) == 1) {
        const timespec now{};
        sigtimedwait(&pipe_, nullptr, &now);
      }
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  NoSigpipe(const NoSigpipe&) = delete;
  NoSigpipe& operator=(const NoSigpipe&) = delete;

 private:
  sigset_t pipe_;
  sigset_t old_;
  bool pending_before_ = false;
};

// How much one OpenSSL call may move while it holds the connection's mutex,
// so that the other direction waits at most that long.
constexpr size_t kBytesPerTurn = 1 << 20;
// OpenSSL reads ahead into a buffer this large, so that one recv brings
// several records.
constexpr size_t kReadAheadBytes = 256 << 10;

struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
using BioPtr = std::unique_ptr<BIO, BioFree>;

BioPtr MemoryBio(const std::string& pem) {
  return BioPtr(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

// The reasons of this thread's queued OpenSSL errors, oldest first.
std::string OpenSslErrors() {
  std::string text;
  while (const unsigned long error = ERR_get_error()) {
    const char* reason = ERR_reason_error_string(error);
    absl::StrAppend(&text, text.empty() ? "" : "; ",
                    reason != nullptr ? reason : absl::StrCat("error ", error));
  }
  return text.empty() ? "unknown error" : text;
}

absl::Status TrustCertificates(SSL_CTX* ctx, const std::string& pem, const char* what) {
  BioPtr bio = MemoryBio(pem);
  X509_STORE* store = SSL_CTX_get_cert_store(ctx);
  int count = 0;
  while (X509* cert = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
    X509_STORE_add_cert(store, cert);
    X509_free(cert);
    ++count;
  }
  ERR_clear_error();  // the reader's complaint about the end of the text
  if (count == 0) return absl::InvalidArgumentError(absl::StrCat(what, " holds no certificate"));
  return absl::OkStatus();
}

absl::Status PresentCertificate(SSL_CTX* ctx, const std::string& chain, const std::string& key,
                                const char* what) {
  BioPtr bio = MemoryBio(chain);
  X509* leaf = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr);
  if (leaf == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(what, " holds no certificate"));
  }
  const bool used = SSL_CTX_use_certificate(ctx, leaf) == 1;
  X509_free(leaf);
  if (!used) return absl::InvalidArgumentError(absl::StrCat(what, ": ", OpenSslErrors()));
  // The intermediates, if the file holds a chain.
  while (X509* next = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
    if (SSL_CTX_add0_chain_cert(ctx, next) != 1) {
      X509_free(next);
      return absl::InvalidArgumentError(absl::StrCat(what, ": ", OpenSslErrors()));
    }
  }
  ERR_clear_error();
  BioPtr key_bio = MemoryBio(key);
  EVP_PKEY* pkey = PEM_read_bio_PrivateKey(key_bio.get(), nullptr, nullptr, nullptr);
  if (pkey == nullptr) {
    ERR_clear_error();
    return absl::InvalidArgumentError(absl::StrCat("the private key of ", what, " does not parse"));
  }
  const bool matches =
      SSL_CTX_use_PrivateKey(ctx, pkey) == 1 && SSL_CTX_check_private_key(ctx) == 1;
  EVP_PKEY_free(pkey);
  if (!matches) {
    ERR_clear_error();
    return absl::InvalidArgumentError(absl::StrCat("the private key does not match ", what));
  }
  return absl::OkStatus();
}

SSL_CTX* NewContext(const SSL_METHOD* method) {
  SSL_CTX* ctx = SSL_CTX_new(method);
  if (ctx == nullptr) return nullptr;
  // Both ends are npud's: TLS 1.3 only, which also rules out renegotiation,
  // the one case where a write would have to read.
  SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);
  // A write interrupted by a full socket is retried with the same bytes.
  SSL_CTX_set_mode(ctx, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  // The bulk frames say where they end, so a stream cut without TLS's
  // close_notify is the frames' to notice (as DataLoss), not OpenSSL's.
  SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
  SSL_CTX_set_read_ahead(ctx, 1);
  SSL_CTX_set_default_read_buffer_len(ctx, kReadAheadBytes);
  return ctx;
}

absl::Status SetNonBlocking(int fd) {
  const int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) {
    return absl::UnavailableError(absl::StrCat("fcntl: ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

class TlsStream final : public ByteStream {
 public:
  // Takes `ssl`, which runs on `socket` (non-blocking).
  TlsStream(UniqueFd socket, std::shared_ptr<const TlsContext> context, SSL* ssl)
      : socket_(std::move(socket)), context_(std::move(context)), ssl_(ssl) {}
  ~TlsStream() override { SSL_free(ssl_); }

  absl::Status Handshake(absl::Time deadline) {
    return Run([](SSL* ssl) { return SSL_do_handshake(ssl); }, deadline).status();
  }

  absl::Status ReadFully(void* data, size_t size) override {
    const absl::Duration timeout = absl::Nanoseconds(read_timeout_ns_.load());
    const absl::Time deadline =
        timeout == absl::ZeroDuration() ? absl::InfiniteFuture() : absl::Now() + timeout;
    char* at = static_cast<char*>(data);
    size_t done = 0;
    while (done < size) {
      const size_t turn = std::min(size - done, kBytesPerTurn);
      // Several records per turn: each SSL_read returns at most one.
      absl::StatusOr<int> n = Run(
          [&](SSL* ssl) {
            size_t got = 0;
            while (got < turn) {
              const int r = SSL_read(ssl, at + done + got, static_cast<int>(turn - got));
              if (r <= 0) return got > 0 ? static_cast<int>(got) : r;
              got += static_cast<size_t>(r);
            }
            return static_cast<int>(got);
          },
          deadline);
      if (!n.ok()) {
        if (absl::IsOutOfRange(n.status()) && done > 0) {
          return absl::DataLossError("the stream ended inside a frame");
        }
        return n.status();
      }
      done += static_cast<size_t>(*n);
    }
    return absl::OkStatus();
  }

  absl::Status WriteAll(absl::Span<const iovec> pieces) override {
    for (const iovec& piece : pieces) NPUD_RETURN_IF_ERROR(Write(piece.iov_base, piece.iov_len));
    return absl::OkStatus();
  }

  // OpenSSL takes a write whole or not at all (it has no partial writes
  // enabled): one it could only start reports 0 and is finished by the next
  // write, which begins with the same bytes.
  absl::StatusOr<size_t> TryWrite(absl::string_view data) override {
    if (data.empty()) return 0;
    const int turn = static_cast<int>(std::min(data.size(), kBytesPerTurn));
    short events = 0;
    NPUD_ASSIGN_OR_RETURN(
        const int n, Attempt([&](SSL* ssl) { return SSL_write(ssl, data.data(), turn); }, &events));
    return static_cast<size_t>(n);
  }

  void SetReadTimeout(absl::Duration timeout) override {
    read_timeout_ns_.store(absl::ToInt64Nanoseconds(timeout));
  }

  void Shutdown() override {
    shut_down_.store(true);
    shutdown(socket_.get(), SHUT_RDWR);  // wakes threads waiting for the socket
  }

 private:
  absl::Status Write(const void* data, size_t size) {
    const char* at = static_cast<const char*>(data);
    for (size_t done = 0; done < size;) {
      const int turn = static_cast<int>(std::min(size - done, kBytesPerTurn));
      absl::StatusOr<int> n =
          Run([&](SSL* ssl) { return SSL_write(ssl, at + done, turn); }, absl::InfiniteFuture());
      if (!n.ok()) return n.status();
      done += static_cast<size_t>(*n);
    }
    return absl::OkStatus();
  }

  // Runs `op` on the connection until it returns > 0, waiting for the
  // socket whenever OpenSSL wants it, until `deadline`.
  absl::StatusOr<int> Run(absl::FunctionRef<int(SSL*)> op, absl::Time deadline) {
    while (true) {
      short events = 0;
      absl::StatusOr<int> result = Attempt(op, &events);
      if (!result.ok() || *result > 0) return result;
      if (absl::Status ready = WaitFor(events, deadline); !ready.ok()) return ready;
    }
  }

  // Runs `op` once: its result when > 0; 0 when OpenSSL waits for the
  // socket (*events says for what); an error when the connection failed.
  absl::StatusOr<int> Attempt(absl::FunctionRef<int(SSL*)> op, short* events) {
    if (shut_down_.load()) return absl::UnavailableError("the stream was shut down");
    absl::MutexLock lock(&mu_);
    ERR_clear_error();
    const bool handshaking = !SSL_is_init_finished(ssl_);
    int result;
    {
      const NoSigpipe no_sigpipe;
      result = op(ssl_);
    }
    if (result > 0) return result;
    const int saved_errno = errno;
    switch (SSL_get_error(ssl_, result)) {
      case SSL_ERROR_WANT_READ:
        *events = POLLIN;
        return 0;
      case SSL_ERROR_WANT_WRITE:
        *events = POLLOUT;
        return 0;
      case SSL_ERROR_ZERO_RETURN:
        if (!handshaking) return absl::OutOfRangeError("end of stream");
        return absl::UnavailableError("TLS handshake: the peer closed the connection");
      case SSL_ERROR_SYSCALL:
        return absl::UnavailableError(
            absl::StrCat(handshaking ? "TLS handshake: " : "TLS: ",
                         saved_errno != 0 ? std::strerror(saved_errno) : OpenSslErrors()));
      default: {
        std::string why = OpenSslErrors();
        if (const long verified = SSL_get_verify_result(ssl_); verified != X509_V_OK) {
          absl::StrAppend(&why, " (", X509_verify_cert_error_string(verified), ")");
        }
        return absl::UnavailableError(absl::StrCat(handshaking ? "TLS handshake: " : "TLS: ", why));
      }
    }
  }

  // Outside the mutex: the other direction may run meanwhile.
  absl::Status WaitFor(short events, absl::Time deadline) const {
    int wait_ms = -1;
    if (deadline != absl::InfiniteFuture()) {
      const absl::Duration left = deadline - absl::Now();
      if (left <= absl::ZeroDuration()) {
        return absl::DeadlineExceededError("nothing arrived within the timeout");
      }
      wait_ms =
          static_cast<int>(absl::ToInt64Milliseconds(absl::Ceil(left, absl::Milliseconds(1))));
    }
    pollfd p{socket_.get(), events, 0};
    const int n = poll(&p, 1, wait_ms);
    if (n == 0) return absl::DeadlineExceededError("nothing arrived within the timeout");
    if (n < 0 && errno != EINTR) {
      return absl::UnavailableError(absl::StrCat("poll: ", std::strerror(errno)));
    }
    return absl::OkStatus();
  }

  const UniqueFd socket_;
  const std::shared_ptr<const TlsContext> context_;  // outlives ssl_
  absl::Mutex mu_;
  SSL* const ssl_ ABSL_PT_GUARDED_BY(mu_);
  std::atomic<int64_t> read_timeout_ns_{0};
  std::atomic<bool> shut_down_{false};
};

}  // namespace

TlsContext::TlsContext(ssl_ctx_st* ctx, std::string server_name)
    : ctx_(ctx), server_name_(std::move(server_name)) {}

TlsContext::~TlsContext() { SSL_CTX_free(ctx_); }

absl::StatusOr<std::shared_ptr<const TlsContext>> TlsContext::ForServer(const ServerTls& tls) {
  SSL_CTX* ctx = NewContext(TLS_server_method());
  if (ctx == nullptr) return absl::InternalError(absl::StrCat("TLS: ", OpenSslErrors()));
  std::shared_ptr<const TlsContext> context(new TlsContext(ctx, ""));
  if (absl::Status presented =
          PresentCertificate(ctx, tls.cert_chain, tls.private_key, "--tls_cert");
      !presented.ok()) {
    return presented;
  }
  if (!tls.client_ca.empty()) {
    if (absl::Status trusted = TrustCertificates(ctx, tls.client_ca, "--tls_client_ca");
        !trusted.ok()) {
      return trusted;
    }
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
  }
  return context;
}

absl::StatusOr<std::shared_ptr<const TlsContext>> TlsContext::ForClient(const ClientTls& tls) {
  SSL_CTX* ctx = NewContext(TLS_client_method());
  if (ctx == nullptr) return absl::InternalError(absl::StrCat("TLS: ", OpenSslErrors()));
  std::shared_ptr<const TlsContext> context(new TlsContext(ctx, tls.server_name));
  if (absl::Status trusted = TrustCertificates(ctx, tls.ca, "NPUD_TLS_CA"); !trusted.ok()) {
    return trusted;
  }
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
  if (!tls.cert_chain.empty()) {
    if (absl::Status presented =
            PresentCertificate(ctx, tls.cert_chain, tls.private_key, "NPUD_TLS_CERT");
        !presented.ok()) {
      return presented;
    }
  }
  return context;
}

std::unique_ptr<ByteStream> MakeTlsServerStream(UniqueFd socket,
                                                std::shared_ptr<const TlsContext> context) {
  // A socket that cannot be made non-blocking or an SSL that cannot be made
  // fails the first read, through OpenSSL's error.
  (void)SetNonBlocking(socket.get());
  SSL* ssl = SSL_new(context->get());
  SSL_set_fd(ssl, socket.get());
  SSL_set_accept_state(ssl);
  return std::make_unique<TlsStream>(std::move(socket), std::move(context), ssl);
}

absl::StatusOr<std::unique_ptr<ByteStream>> TlsConnect(UniqueFd socket,
                                                       std::shared_ptr<const TlsContext> context,
                                                       const std::string& host,
                                                       absl::Duration timeout) {
  if (absl::Status set = SetNonBlocking(socket.get()); !set.ok()) return set;
  SSL* ssl = SSL_new(context->get());
  if (ssl == nullptr) return absl::InternalError(absl::StrCat("TLS: ", OpenSslErrors()));
  const int fd = socket.get();
  auto stream = std::make_unique<TlsStream>(std::move(socket), context, ssl);
  SSL_set_fd(ssl, fd);
  SSL_set_connect_state(ssl);
  // Which name npud's certificate must carry: an IP address as an IP entry,
  // anything else as a DNS name (also sent as SNI).
  const std::string& name = context->server_name().empty() ? host : context->server_name();
  in6_addr ip{};
  const bool is_ip =
      inet_pton(AF_INET, name.c_str(), &ip) == 1 || inet_pton(AF_INET6, name.c_str(), &ip) == 1;
  if (is_ip) {
    X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name.c_str());
  } else {
    SSL_set_tlsext_host_name(ssl, name.c_str());
    SSL_set1_host(ssl, name.c_str());
  }
  if (absl::Status shaken = stream->Handshake(absl::Now() + timeout); !shaken.ok()) {
    return absl::UnavailableError(
        absl::StrCat("TLS with npud (as ", name, ") failed: ", shaken.message()));
  }
  return stream;
}

}  // namespace npud
