// tls_baseline.h
//
// The baseline of remote copies with TLS on: a bare TLS 1.3 stream over
// loopback between two processes, written the plainest way (blocking
// sockets, one SSL_write per message, OpenSSL's defaults otherwise), with
// the certificates of tools/make_tls_certs.sh.

#ifndef NPUD_BENCH_TLS_BASELINE_H_
#define NPUD_BENCH_TLS_BASELINE_H_

#include <cstddef>
#include <string>

namespace npud::bench {

// Sends `reps` messages of `size` bytes (after one to warm up), each
// acknowledged with one byte, to a child process; returns the message
// bytes per second in GB/s, or 0 if the TLS set-up failed. `cert_dir` holds
// server.crt, server.key and ca.crt.
double TlsStreamGbps(size_t size, int reps, const std::string& cert_dir);

}  // namespace npud::bench

#endif  // NPUD_BENCH_TLS_BASELINE_H_
