// aclInit / aclFinalize callbacks (client/core/init_callbacks.h) through
// Runtime::Init and Finalize, which never reach a daemon.

#include "client/core/init_callbacks.h"

#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "client/core/runtime.h"
#include "common/acl_status.h"
#include "gtest/gtest.h"

namespace npud::client {
namespace {

// aclRegisterCallbackType values.
constexpr uint32_t kModel = 0;
constexpr uint32_t kOpExecutor = 1;
constexpr uint32_t kOpCompiler = 3;
constexpr uint32_t kDvpp = 6;
constexpr uint32_t kOther = 0xFFFF;

class InitCallbacksTest : public ::testing::Test {
 protected:
  InitCallbacksTest()
      : runtime_([]() -> absl::StatusOr<std::vector<std::unique_ptr<Transport>>> {
          return absl::UnavailableError("no daemon in this test");
        }) {}

  // The registry is the process's: every test leaves it empty.
  void TearDown() override { UnregisterAll(); }
  void UnregisterAll() {
    for (const auto& [type, key] : init_keys_) EXPECT_TRUE(UnregisterInitCallback(type, key).ok());
    for (const auto& [type, key] : finalize_keys_) {
      EXPECT_TRUE(UnregisterFinalizeCallback(type, key).ok());
    }
    init_keys_.clear();
    finalize_keys_.clear();
  }

  // Registers a callback that logs "<name>:<config>" and answers `code`.
  absl::Status OnInit(uint32_t type, const std::string& name, int32_t code = 0) {
    const uintptr_t key = ++next_key_;
    absl::Status status = RegisterInitCallback(type, key, [this, name, code](const std::string& c) {
      log_.push_back(name + ":" + c);
      return code;
    });
    if (status.ok()) init_keys_.push_back({type, key});
    return status;
  }
  absl::Status OnFinalize(uint32_t type, const std::string& name) {
    const uintptr_t key = ++next_key_;
    absl::Status status = RegisterFinalizeCallback(type, key, [this, name] {
      log_.push_back(name);
      return 0;
    });
    if (status.ok()) finalize_keys_.push_back({type, key});
    return status;
  }

  std::string ConfigFile(const std::string& text) {
    char path[] = "/tmp/npud-acl-config-XXXXXX";
    const int fd = mkstemp(path);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
    close(fd);
    files_.push_back(path);
    return path;
  }
  ~InitCallbacksTest() override {
    for (const std::string& file : files_) std::remove(file.c_str());
  }

  Runtime runtime_;
  std::vector<std::string> log_;
  std::vector<std::pair<uint32_t, uintptr_t>> init_keys_;
  std::vector<std::pair<uint32_t, uintptr_t>> finalize_keys_;
  std::vector<std::string> files_;
  uintptr_t next_key_ = 0x1000;
};

TEST_F(InitCallbacksTest, InitRunsThemInCannsOrderWithTheConfiguration) {
  ASSERT_TRUE(OnInit(kOther, "other").ok());
  ASSERT_TRUE(OnInit(kDvpp, "dvpp").ok());
  ASSERT_TRUE(OnInit(kOpExecutor, "executor").ok());
  ASSERT_TRUE(OnInit(kModel, "model").ok());
  const std::string config = ConfigFile("{\"dump\": {}}");
  ASSERT_TRUE(runtime_.Init(config.c_str()).ok());
  EXPECT_EQ(log_, (std::vector<std::string>{"model:{\"dump\": {}}", "executor:{\"dump\": {}}",
                                            "dvpp:{\"dump\": {}}", "other:{\"dump\": {}}"}));
  // One registered while initialized runs at once.
  ASSERT_TRUE(OnInit(kOther, "late").ok());
  EXPECT_EQ(log_.back(), "late:{\"dump\": {}}");
  ASSERT_TRUE(runtime_.Finalize().ok());
}

TEST_F(InitCallbacksTest, TheOpExecutorNeedsAConfigurationFile) {
  ASSERT_TRUE(OnInit(kOpExecutor, "executor").ok());
  ASSERT_TRUE(OnInit(kModel, "model").ok());
  ASSERT_TRUE(runtime_.Init(nullptr).ok());
  EXPECT_EQ(log_, std::vector<std::string>{"model:"});
  ASSERT_TRUE(runtime_.Finalize().ok());
  // After aclFinalize a new registration waits for the next aclInit.
  ASSERT_TRUE(OnInit(kOther, "waits").ok());
  EXPECT_EQ(log_.size(), 1u);
}

TEST_F(InitCallbacksTest, AFailingCallbackFailsInitWithItsCode) {
  ASSERT_TRUE(OnInit(kModel, "model", kRtInternalError).ok());
  absl::Status init = runtime_.Init(nullptr);
  EXPECT_EQ(ToAclCode(init), kRtInternalError);
  // Not initialized: once the failing callback is gone, aclInit works.
  UnregisterAll();
  EXPECT_TRUE(runtime_.Init(nullptr).ok());
  EXPECT_TRUE(runtime_.Finalize().ok());
}

TEST_F(InitCallbacksTest, FinalizeRunsThemInCannsOrder) {
  ASSERT_TRUE(OnFinalize(kOther, "other").ok());
  ASSERT_TRUE(OnFinalize(kModel, "model").ok());
  ASSERT_TRUE(OnFinalize(kOpCompiler, "compiler").ok());
  ASSERT_TRUE(OnFinalize(kDvpp, "dvpp").ok());
  ASSERT_TRUE(runtime_.Init(nullptr).ok());
  EXPECT_TRUE(log_.empty());
  ASSERT_TRUE(runtime_.Finalize().ok());
  EXPECT_EQ(log_, (std::vector<std::string>{"compiler", "model", "dvpp", "other"}));
  // The last aclFinalizeReference finalizes too.
  log_.clear();
  ASSERT_TRUE(runtime_.Init(nullptr).ok());
  auto left = runtime_.FinalizeReference();
  ASSERT_TRUE(left.ok()) << left.status();
  EXPECT_EQ(*left, 0u);
  EXPECT_EQ(log_, (std::vector<std::string>{"compiler", "model", "dvpp", "other"}));
}

TEST_F(InitCallbacksTest, OneFunctionPerTypeButOther) {
  ASSERT_TRUE(OnInit(kModel, "first").ok());
  EXPECT_EQ(ToAclCode(OnInit(kModel, "second")), kAclInternalError);
  ASSERT_TRUE(OnInit(kOther, "a").ok());
  EXPECT_TRUE(OnInit(kOther, "b").ok());
  ASSERT_TRUE(OnFinalize(kDvpp, "first").ok());
  EXPECT_EQ(ToAclCode(OnFinalize(kDvpp, "second")), kAclInternalError);
  // Unknown functions cannot be unregistered.
  EXPECT_EQ(ToAclCode(UnregisterInitCallback(kModel, 1)), kAclInternalError);
  EXPECT_EQ(ToAclCode(UnregisterFinalizeCallback(kOther, 1)), kAclInternalError);
}

}  // namespace
}  // namespace npud::client
