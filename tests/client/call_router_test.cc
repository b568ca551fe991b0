// CallRouter on its own: every call of calls.proto has a routing rule, and
// the rules pick the daemon, rewrite device ids and remember objects.

#include "client/core/call_router.h"

#include <set>
#include <string>

#include "common/acl_status.h"
#include "gtest/gtest.h"

namespace npud::client {
namespace {

constexpr uint64_t kA = 32ull << 40;
constexpr uint64_t kB = 48ull << 40;
constexpr uint64_t kSpan = 1ull << 40;

std::unique_ptr<CallRouter> TwoDaemons() {
  std::vector<CallRouter::DaemonLayout> layouts;
  layouts.push_back({"a", 1, {{kA, kSpan}}});
  layouts.push_back({"b", 2, {{kB, 2 * kSpan}}});
  auto router = CallRouter::Create(std::move(layouts));
  EXPECT_TRUE(router.ok()) << router.status();
  return *std::move(router);
}

// Calls that name no daemon by their fields, on purpose: they go to every
// daemon (broadcast) or to the one of the current device.
const std::set<std::string> kUnrouted = {"Ping",
                                         "LoadBinary",
                                         "UnloadBinary",
                                         "SetExecuteTimeout",
                                         "CompileProgram",
                                         "IpcSetImportPids",
                                         "IpcImportMemory",
                                         "IpcClose",
                                         "SetPhysicalPids",
                                         "StartTrace",
                                         "StopTrace",
                                         "RegisterHostMemory",
                                         "ReleaseHostMemory",
                                         "UnmapHostWindow",
                                         "Snapshot"};

TEST(CallRouterTest, EveryCallNamesItsDaemonOrIsKnownNotTo) {
  const auto* oneof = v1::Call::descriptor()->FindOneofByName("op");
  for (int i = 0; i < oneof->field_count(); ++i) {
    const auto* op = oneof->field(i)->message_type();
    bool routed = false;
    for (int f = 0; f < op->field_count(); ++f) routed |= CallRouter::IsRoutingField(*op->field(f));
    EXPECT_NE(routed, kUnrouted.count(op->name()) == 1)
        << op->name()
        << (routed ? " has a routing field but is listed as unrouted"
                   : " has no field CallRouter routes by: name it by convention, or list it");
  }
}

TEST(CallRouterTest, DeviceIdsPickTheDaemonAndAreRewritten) {
  auto router = TwoDaemons();
  v1::Call call;
  call.mutable_malloc()->set_device_id(2);
  auto daemon = router->Route(call, 0);
  ASSERT_TRUE(daemon.ok());
  EXPECT_EQ(*daemon, 1u);
  EXPECT_EQ(call.malloc().device_id(), 1);
  call.mutable_malloc()->set_device_id(0);
  EXPECT_EQ(*router->Route(call, 1), 0u);
  // Unknown ids stay as they are, for the daemon to refuse.
  call.mutable_malloc()->set_device_id(7);
  EXPECT_EQ(*router->Route(call, 1), 1u);
  EXPECT_EQ(call.malloc().device_id(), 7);
}

TEST(CallRouterTest, ObjectsBelongToTheDaemonTheyWereCreatedOn) {
  auto router = TwoDaemons();
  v1::Call create;
  create.mutable_create_stream()->set_stream_id(5);
  create.mutable_create_stream()->set_device_id(1);
  ASSERT_EQ(*router->Route(create, 0), 1u);
  v1::Call sync;
  sync.mutable_synchronize_stream()->set_stream_id(5);
  EXPECT_EQ(*router->Route(sync, 0), 1u);
  EXPECT_EQ(*router->RouteCopy(5, 0, 0), 1u);
  // A copy of daemon a's memory on it spans both.
  EXPECT_EQ(ToAclCode(router->RouteCopy(5, kA + 64, 0).status()), kRtFeatureNotSupport);
  v1::Call destroy;
  destroy.mutable_destroy_stream()->set_stream_id(5);
  EXPECT_EQ(*router->Route(destroy, 0), 1u);
  // Forgotten: now it names nothing and goes where the caller says.
  EXPECT_EQ(*router->Route(sync, 0), 0u);
}

TEST(CallRouterTest, AddressesPickTheDaemonAndTwoDaemonsAreRefused) {
  auto router = TwoDaemons();
  v1::Call free;
  free.mutable_free()->set_address(kB + kSpan + 8);
  EXPECT_EQ(*router->Route(free, 0), 1u);
  v1::Call copy;
  copy.mutable_copy_device()->set_dst(kA);
  copy.mutable_copy_device()->set_src(kB);
  auto daemon = router->Route(copy, 0);
  EXPECT_EQ(ToAclCode(daemon.status()), kRtFeatureNotSupport);
  EXPECT_NE(daemon.status().message().find("npud at a and at b"), std::string::npos)
      << daemon.status();
}

TEST(CallRouterTest, RepliesComeBackInTheProgramsNumbering) {
  auto router = TwoDaemons();
  v1::Reply reply;
  reply.mutable_ipc()->set_device_id(1);
  router->GlobalizeReply(1, reply);
  EXPECT_EQ(reply.ipc().device_id(), 2);
  router->GlobalizeReply(0, reply);
  EXPECT_EQ(reply.ipc().device_id(), 2);
}

TEST(CallRouterTest, OverlappingAddressRangesAreRefused) {
  std::vector<CallRouter::DaemonLayout> layouts;
  layouts.push_back({"a", 1, {{kA, kSpan}}});
  layouts.push_back({"b", 1, {{kA + kSpan / 2, kSpan}}});
  auto router = CallRouter::Create(std::move(layouts));
  ASSERT_FALSE(router.ok());
  EXPECT_NE(router.status().message().find("--address_slot"), std::string::npos);
}

}  // namespace
}  // namespace npud::client
