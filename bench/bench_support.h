// bench_support.h
//
// What the benchmarks share: a private npud for the run, and running this
// benchmark binary again as a client process (the ACL runtime binds one
// daemon per process, so each transport gets its own process).

#ifndef NPUD_BENCH_BENCH_SUPPORT_H_
#define NPUD_BENCH_BENCH_SUPPORT_H_

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"

// Ends the benchmark (exit 2) with the runtime's message if an ACL call fails.
#define NPUD_BENCH_CHECK(call)                                        \
  do {                                                                \
    if ((call) != ACL_SUCCESS) {                                      \
      std::fprintf(stderr, "%s failed: %s\n", #call,                  \
                   aclGetRecentErrMsg() ? aclGetRecentErrMsg() : ""); \
      std::exit(2);                                                   \
    }                                                                 \
  } while (0)

namespace npud::bench {

// npud on a fresh unix socket and a free TCP port, killed on destruction;
// with TLS on its TCP port when `tls_dir` holds tools/make_tls_certs.sh's
// server.crt and server.key.
class BenchDaemon {
 public:
  explicit BenchDaemon(const std::string& tls_dir = "");
  ~BenchDaemon();
  bool ok() const { return !unix_address_.empty(); }
  const std::string& unix_address() const { return unix_address_; }
  const std::string& tcp_address() const { return tcp_address_; }
  // npud's own TCP port: framed sessions (npud://127.0.0.1:port).
  const std::string& framed_address() const { return framed_address_; }
  pid_t pid() const { return pid_; }

 private:
  std::string dir_;
  pid_t pid_ = -1;
  std::string unix_address_;
  std::string tcp_address_;
  std::string framed_address_;
};

// A process's resident memory (VmRSS) in MiB, 0 if it cannot be read.
uint64_t ResidentMiB(pid_t pid);

// The daemon's resident memory over a run: idle (at construction), the
// peak (sampled every 20 ms until Stop) and after the load.
class ResidentMemory {
 public:
  explicit ResidentMemory(pid_t pid);
  ~ResidentMemory();
  // Ends sampling, then waits up to `settle` for the daemon to come within
  // `slack_mib` of its idle figure (npud trims its heap once quiet).
  void Stop(std::chrono::milliseconds settle, uint64_t slack_mib);
  uint64_t idle_mib() const { return idle_mib_; }
  uint64_t peak_mib() const { return peak_mib_.load(); }
  uint64_t after_mib() const { return after_mib_; }

 private:
  const pid_t pid_;
  const uint64_t idle_mib_;
  std::atomic<uint64_t> peak_mib_;
  std::atomic<bool> stop_{false};
  uint64_t after_mib_ = 0;
  std::thread sampler_;
};

// Seconds elapsed since `since`.
inline double SecondsSince(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// Two connected TCP sockets over loopback, with Nagle off: fds[0] the
// connecting side, fds[1] the accepted one.
void TcpLoopbackPair(int fds[2]);

// Seconds on CLOCK_MONOTONIC, the same clock in every process.
double MonotonicSeconds();

// A start line for client processes that should measure together, kept in
// a fresh directory. A fixed start time is not enough: several clients
// setting up at once on a small machine can take longer than any fixed delay,
// and a late client makes the aggregate look slower than it is.
class StartLine {
 public:
  StartLine();   // Creates the directory.
  ~StartLine();  // Removes it.
  // The client's argument naming the directory (--start_line=DIR).
  std::string Argument() const { return "--start_line=" + dir_; }
  // Waits until `clients` clients have arrived (at most 60 s), then lets
  // them all go; false if some never arrived.
  bool ReleaseWhenArrived(int clients);

  // Client side: marks this client ready and returns once the parent has
  // released the line (no-op for an empty `dir`).
  static void Arrive(const std::string& dir);

 private:
  std::string dir_;
};

// Runs `self --client <args>` with NPUD_ADDRESS=address and returns true if
// it exited 0; its stdout goes to *output.
bool RunSelfAsClient(const char* self, const std::string& address,
                     const std::vector<std::string>& args, std::string* output);

// Runs each of `clients` (its arguments) as in RunSelfAsClient, all at once
// and released together through a StartLine (its --start_line argument is
// added); false if one failed or never arrived. Their outputs in *outputs.
bool RunClientsTogether(const char* self, const std::string& address,
                        const std::vector<std::vector<std::string>>& clients,
                        std::vector<std::string>* outputs);

// The shortest of `repeats` runs of `run`, in seconds.
template <class F>
double BestSeconds(int repeats, F&& run) {
  double best = 0;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    run();
    const double took = SecondsSince(start);
    if (r == 0 || took < best) best = took;
  }
  return best;
}

// Points this process's ACL client at `daemon`'s unix socket (NPUD_ADDRESS),
// initialises it, sets device 0 and returns a new stream on it; ends the
// benchmark if a step fails. Inline: only benchmarks that link acl_rt call it.
inline aclrtStream OpenStreamOn(const BenchDaemon& daemon) {
  setenv("NPUD_ADDRESS", daemon.unix_address().c_str(), 1);
  NPUD_BENCH_CHECK(aclInit(nullptr));
  NPUD_BENCH_CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  NPUD_BENCH_CHECK(aclrtCreateStream(&stream));
  return stream;
}

// Loads the kernel object at `path` and returns its kernel `name`; ends the
// benchmark if either fails. Inline: only benchmarks that link acl_rt call it.
inline aclrtFuncHandle LoadKernel(const char* path, const char* name) {
  aclrtBinHandle binary = nullptr;
  aclrtFuncHandle kernel = nullptr;
  NPUD_BENCH_CHECK(aclrtBinaryLoadFromFile(path, nullptr, &binary));
  NPUD_BENCH_CHECK(aclrtBinaryGetFunction(binary, name, &kernel));
  return kernel;
}

}  // namespace npud::bench

#endif  // NPUD_BENCH_BENCH_SUPPORT_H_
