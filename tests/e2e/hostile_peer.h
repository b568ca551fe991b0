// hostile_peer.h
//
// What hostile_connection_test and hostile_session_test share: the daemon's
// usage as /proc reports it (resident memory, descriptors, threads), and
// HostilePeerFixture, which starts an npud that requires a token, takes its
// usage once an honest client has been served (the baseline every attack is
// measured against), connects to its sockets by hand and times honest
// clients while an attack goes on.

#ifndef NPUD_TESTS_E2E_HOSTILE_PEER_H_
#define NPUD_TESTS_E2E_HOSTILE_PEER_H_

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "tests/e2e/daemon_test.h"
#include "tests/e2e/npud_process.h"

namespace npud::testing {

// What /proc says about a process.
struct Usage {
  uint64_t rss_mib = 0;
  int threads = 0;
  int fds = 0;
};

Usage UsageOf(pid_t pid);
// "<rss> MiB, <fds> fds, <threads> threads".
std::string Describe(const Usage& u);

class HostilePeerFixture : public DaemonTest {
 protected:
  // The token the daemon requires and honest clients present.
  static constexpr char kToken[] = "hostile-peer-test-token";

  // The attacks hold thousands of sockets on this side: raises this
  // process's descriptor limit to its hard limit.
  static void SetUpTestSuite();

  // Starts npud with `flags` and a token file holding kToken on `transport`,
  // serves an honest client (so that lazily made state is in the baseline),
  // then takes the baseline before_.
  void Start(std::vector<std::string> flags,
             NpudProcess::Transport transport = NpudProcess::Transport::kUnix);
  // Stops the daemon (DaemonTest) and removes the token file.
  void TearDown() override;

  // A connection to the daemon's local protocol socket (on kUnix), or -1.
  int Connect();
  // A TCP connection to the daemon's port (on kTcp and kFramed), or -1.
  int ConnectTcp();

  // The environment a client of this daemon needs: its address and kToken.
  std::vector<std::string> ClientEnv() const;

  // Runs a client that checks its own results; fails the test if it fails.
  double HonestClientSeconds();

  // Waits up to `timeout` for the daemon's descriptors to fall to `fds`.
  Usage WaitForFds(int fds, absl::Duration timeout);

  // Prints the figures of `attack`: the baseline, `during`, `after` and the
  // honest client's time.
  void Report(const char* attack, const Usage& during, const Usage& after, double honest);

  std::string token_file_;
  std::string path_;
  int port_ = 0;
  Usage before_;
};

}  // namespace npud::testing

#endif  // NPUD_TESTS_E2E_HOSTILE_PEER_H_
