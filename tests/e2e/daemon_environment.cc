#include "tests/e2e/daemon_environment.h"

#include <cstdlib>
#include <string>

#include "acl/acl.h"

namespace npud::testing {

void DaemonEnvironment::SetUp() {
  if (InprocFromEnv()) {
    setenv("NPUD_ADDRESS", "inproc:", 1);
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    return;
  }
  auto started = NpudProcess::Start(TransportFromEnv(), flags_);
  ASSERT_TRUE(started.ok()) << started.status();
  daemon_ = *std::move(started);
  // Must be set before the first ACL call of this process.
  setenv("NPUD_ADDRESS", daemon_->address().c_str(), 1);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
}

void DaemonEnvironment::TearDown() {
  aclFinalize();
  if (daemon_ == nullptr) return;
  const absl::Status stopped = daemon_->Stop();
  EXPECT_TRUE(stopped.ok()) << stopped << "\n" << daemon_->Log();
  daemon_.reset();
}

bool LocalProtocol() {
  const char* test_transport = std::getenv("NPUD_TEST_TRANSPORT");
  const char* transport = std::getenv("NPUD_TRANSPORT");
  return (test_transport == nullptr || std::string(test_transport) == "unix") &&
         (transport == nullptr || std::string(transport) != "grpc");
}

}  // namespace npud::testing
