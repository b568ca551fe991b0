// npud_process.h
//
// NpudProcess: a real npud started as a child process for a test, listening
// on a fresh unix socket or a free TCP port on 127.0.0.1, stopped (SIGTERM,
// then SIGKILL) when the object goes away.

#ifndef NPUD_TESTS_E2E_NPUD_PROCESS_H_
#define NPUD_TESTS_E2E_NPUD_PROCESS_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace npud::testing {

class NpudProcess {
 public:
  // kTls: TCP with mutual TLS, certificates from tools/make_tls_certs.sh
  // made for this daemon; the NPUD_TLS_* variables of this process are set
  // so that its clients (and their children) use them. kFramed and
  // kFramedTls: the same daemons as kTcp and kTls, with clients addressing
  // npud's own port (npud://, framed sessions) instead of gRPC.
  enum class Transport { kUnix, kTcp, kTls, kFramed, kFramedTls };

  // Starts npud (the binary the build put in NPUD_BINARY) with `extra_flags`
  // and waits until it serves.
  static absl::StatusOr<std::unique_ptr<NpudProcess>> Start(
      Transport transport, const std::vector<std::string>& extra_flags = {});
  ~NpudProcess();

  // What NPUD_ADDRESS must be set to for clients of this daemon.
  const std::string& address() const { return address_; }
  // The gRPC address ("unix:///path" or "127.0.0.1:port", for npuctl and
  // raw gRPC peers) and npud's own TCP port (0 on the unix socket).
  const std::string& grpc_address() const { return grpc_address_; }
  int npud_port() const { return npud_port_; }
  pid_t pid() const { return pid_; }
  // True while the process has not exited.
  bool Alive();
  // Stops the daemon (SIGTERM) and waits for it. OK only if it was still
  // running and exited with status 0: a sanitizer report (a leak, a memory
  // error) makes that status non-zero, so this fails the test that saw it.
  absl::Status Stop();
  // The daemon's stderr so far.
  std::string Log() const;

 private:
  NpudProcess() = default;

  pid_t pid_ = -1;
  // The wait status once reaped (by Alive() or Stop()).
  int exit_status_ = 0;
  std::string dir_;
  std::string address_;
  std::string grpc_address_;
  int npud_port_ = 0;
  std::string log_path_;
};

// A child process whose stdin and stdout are pipes to the test.
class ChildProcess {
 public:
  // Starts `argv` (argv[0] a path) with `env` added to this environment.
  static absl::StatusOr<std::unique_ptr<ChildProcess>> Spawn(const std::vector<std::string>& argv,
                                                             const std::vector<std::string>& env);
  // Kills (SIGKILL) and reaps the child if it still runs.
  ~ChildProcess();

  // The next line of its stdout without the newline; "" at end of file or
  // after `timeout`.
  std::string ReadLine(absl::Duration timeout);
  void WriteLine(const std::string& line);
  void CloseStdin();
  void Kill(int signal);
  // Waits for the exit; returns the exit status or -signal.
  int Wait();
  pid_t pid() const { return pid_; }

 private:
  ChildProcess() = default;
  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  std::string buffer_;
  bool reaped_ = false;
  int status_ = 0;
};

// The transport an e2e test binary runs against: NPUD_TEST_TRANSPORT=tcp,
// tls, framed or framed_tls select those, anything else the unix socket.
NpudProcess::Transport TransportFromEnv();
// True for NPUD_TEST_TRANSPORT=inproc: suites that can run with the devices
// inside the test process start no daemon.
bool InprocFromEnv();

// Runs `argv` (argv[0] a path) with `env` added to this environment, waits
// and returns its exit status (or -signal); stdout goes to *out if given.
int RunProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env,
               std::string* out = nullptr);

}  // namespace npud::testing

#endif  // NPUD_TESTS_E2E_NPUD_PROCESS_H_
