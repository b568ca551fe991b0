// daemon_test.h
//
// DaemonTest: the fixture of e2e suites whose tests each start their own npud
// (StartDaemon) and stop it at the end of the test, failing the test if the
// daemon did not exit cleanly (a sanitizer report, a crash).

#ifndef NPUD_TESTS_E2E_DAEMON_TEST_H_
#define NPUD_TESTS_E2E_DAEMON_TEST_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tests/e2e/npud_process.h"

namespace npud::testing {

class DaemonTest : public ::testing::Test {
 protected:
  // Starts npud with `flags` on `transport` (by default the suite's, from
  // NPUD_TEST_TRANSPORT) into daemon_; a fatal failure if it does not serve.
  void StartDaemon(const std::vector<std::string>& flags = {},
                   NpudProcess::Transport transport = TransportFromEnv()) {
    auto started = NpudProcess::Start(transport, flags);
    ASSERT_TRUE(started.ok()) << started.status();
    daemon_ = *std::move(started);
  }

  // Stops the daemon if one was started.
  void TearDown() override {
    if (daemon_ == nullptr) return;
    const absl::Status stopped = daemon_->Stop();
    EXPECT_TRUE(stopped.ok()) << stopped << "\n" << daemon_->Log();
  }

  std::unique_ptr<NpudProcess> daemon_;
};

}  // namespace npud::testing

#endif  // NPUD_TESTS_E2E_DAEMON_TEST_H_
