// daemon_environment.h
//
// DaemonEnvironment: the npud of a test binary whose own process is the ACL
// client. Kept apart from npud_process.h because it links libacl_rt, which
// carries the protocol's generated code: a test that links the generated
// code itself (protocol_abuse_test) must not link the runtime too.

#ifndef NPUD_TESTS_E2E_DAEMON_ENVIRONMENT_H_
#define NPUD_TESTS_E2E_DAEMON_ENVIRONMENT_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tests/e2e/npud_process.h"

namespace npud::testing {

// Starts one npud for a whole test binary (as NPUD_TEST_TRANSPORT says),
// points this process's ACL runtime at it and calls aclInit; checks at the
// end that it survived and stops cleanly. NPUD_TEST_TRANSPORT=inproc starts
// no daemon: the runtime uses NPUD_ADDRESS=inproc: (devices inside this
// process). Register with ::testing::AddGlobalTestEnvironment.
class DaemonEnvironment : public ::testing::Environment {
 public:
  // `flags` go to npud.
  explicit DaemonEnvironment(std::vector<std::string> flags = {}) : flags_(std::move(flags)) {}
  void SetUp() override;
  void TearDown() override;

  // The running daemon (for its log), between SetUp and TearDown; null for
  // the inproc variant.
  static NpudProcess* daemon() { return daemon_.get(); }

 private:
  const std::vector<std::string> flags_;
  static inline std::unique_ptr<NpudProcess> daemon_;
};

// True when this process talks the local protocol to its daemon (host
// memory can then be shared with it): the unix variant, not over gRPC.
bool LocalProtocol();

}  // namespace npud::testing

#endif  // NPUD_TESTS_E2E_DAEMON_ENVIRONMENT_H_
