// TDT channels (acl_tdt.h) and queues (acl_tdt_queue.h) against a real npud
// on every transport: datasets travel whole (types, dims, bytes, from host
// or device memory), capacities and depths bound what is queued, timeouts
// wait and give CANN's codes, routes forward messages, and a queue belongs
// to its process: others cannot name it or its name while it lives, and it
// goes when the process does. Bad input gets CANN's codes.

#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "acl/acl.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

class TdtTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS); }

  // A unique name per test, so that tests never collide on the device.
  static std::string Name(const std::string& base) {
    return absl::StrCat(base, "_", ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }

  static uint32_t CreateQueue(const std::string& name, uint32_t depth, aclError* error = nullptr) {
    acltdtQueueAttr* attr = acltdtCreateQueueAttr();
    const char* text = name.c_str();
    EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(text), &text), ACL_SUCCESS);
    EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(depth), &depth),
              ACL_SUCCESS);
    uint32_t id = 0;
    const aclError created = acltdtCreateQueue(attr, &id);
    if (error != nullptr) {
      *error = created;
    } else {
      EXPECT_EQ(created, ACL_SUCCESS);
    }
    EXPECT_EQ(acltdtDestroyQueueAttr(attr), ACL_SUCCESS);
    return id;
  }
};

TEST_F(TdtTest, AChannelCarriesDatasetsWhole) {
  acltdtChannelHandle* channel = acltdtCreateChannelWithCapacity(0, Name("ch").c_str(), 4);
  ASSERT_NE(channel, nullptr);
  std::vector<float> floats = {1.5f, -2, 3, 4.25f};
  std::vector<int32_t> ints = {7, 8, 9};
  const int64_t float_dims[] = {2, 2};
  const int64_t int_dims[] = {3};
  acltdtDataItem* a = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, float_dims, 2, ACL_FLOAT,
                                           floats.data(), floats.size() * sizeof(float));
  acltdtDataItem* b = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, int_dims, 1, ACL_INT32,
                                           ints.data(), ints.size() * sizeof(int32_t));
  acltdtDataItem* end =
      acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, nullptr, 0, ACL_FLOAT, nullptr, 0);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_NE(end, nullptr);
  acltdtDataset* sent = acltdtCreateDataset();
  for (acltdtDataItem* item : {a, b, end}) ASSERT_EQ(acltdtAddDataItem(sent, item), ACL_SUCCESS);
  ASSERT_EQ(acltdtSendTensor(channel, sent, 1000), ACL_SUCCESS);
  // The bytes were taken at send: changing the buffers now changes nothing.
  floats[0] = 100;
  size_t size = 0;
  ASSERT_EQ(acltdtQueryChannelSize(channel, &size), ACL_SUCCESS);
  EXPECT_EQ(size, 1u);

  // A dataset holding the program's items cannot receive, and the message
  // is not lost by trying.
  EXPECT_EQ(acltdtReceiveTensor(channel, sent, 0), ACL_ERROR_INVALID_PARAM);
  acltdtDataset* got = acltdtCreateDataset();
  ASSERT_EQ(acltdtReceiveTensor(channel, got, 0), ACL_SUCCESS);
  ASSERT_EQ(acltdtGetDatasetSize(got), 3u);
  EXPECT_STREQ(acltdtGetDatasetName(got), "");
  acltdtDataItem* x = acltdtGetDataItem(got, 0);
  EXPECT_EQ(acltdtGetTensorTypeFromItem(x), ACL_TENSOR_DATA_TENSOR);
  EXPECT_EQ(acltdtGetDataTypeFromItem(x), ACL_FLOAT);
  ASSERT_EQ(acltdtGetDimNumFromItem(x), 2u);
  int64_t dims[2] = {};
  EXPECT_EQ(acltdtGetDimsFromItem(x, dims, 1), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(acltdtGetDimsFromItem(x, dims, 2), ACL_SUCCESS);
  EXPECT_EQ(dims[0], 2);
  EXPECT_EQ(dims[1], 2);
  ASSERT_EQ(acltdtGetDataSizeFromItem(x), 16u);
  const float* values = static_cast<const float*>(acltdtGetDataAddrFromItem(x));
  EXPECT_EQ(values[0], 1.5f);
  EXPECT_EQ(values[3], 4.25f);
  acltdtDataItem* y = acltdtGetDataItem(got, 1);
  EXPECT_EQ(acltdtGetDataTypeFromItem(y), ACL_INT32);
  EXPECT_EQ(static_cast<const int32_t*>(acltdtGetDataAddrFromItem(y))[2], 9);
  acltdtDataItem* z = acltdtGetDataItem(got, 2);
  EXPECT_EQ(acltdtGetTensorTypeFromItem(z), ACL_TENSOR_DATA_END_OF_SEQUENCE);
  EXPECT_EQ(acltdtGetDataSizeFromItem(z), 0u);
  EXPECT_EQ(acltdtGetDataItem(got, 3), nullptr);
  size_t slices = 9, slice = 9;
  EXPECT_EQ(acltdtGetSliceInfoFromItem(x, &slices, &slice), ACL_SUCCESS);
  EXPECT_EQ(slices, 0u);
  // Items cannot be added to a received dataset.
  EXPECT_EQ(acltdtAddDataItem(got, a), ACL_ERROR_FEATURE_UNSUPPORTED);
  ASSERT_EQ(acltdtQueryChannelSize(channel, &size), ACL_SUCCESS);
  EXPECT_EQ(size, 0u);

  // A received dataset receives again (its old items go).
  ASSERT_EQ(acltdtSendTensor(channel, sent, 0), ACL_SUCCESS);
  ASSERT_EQ(acltdtReceiveTensor(channel, got, 0), ACL_SUCCESS);
  EXPECT_EQ(static_cast<const float*>(acltdtGetDataAddrFromItem(acltdtGetDataItem(got, 0)))[0],
            100.0f);

  EXPECT_EQ(acltdtDestroyDataset(got), ACL_SUCCESS);  // frees its items
  EXPECT_EQ(acltdtDestroyDataset(sent), ACL_SUCCESS);
  for (acltdtDataItem* item : {a, b, end}) EXPECT_EQ(acltdtDestroyDataItem(item), ACL_SUCCESS);
  EXPECT_EQ(acltdtStopChannel(channel), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyChannel(channel), ACL_SUCCESS);
}

TEST_F(TdtTest, TensorsInDeviceMemoryTravelToo) {
  acltdtChannelHandle* channel = acltdtCreateChannelWithCapacity(0, Name("dev").c_str(), 2);
  ASSERT_NE(channel, nullptr);
  const std::vector<float> host = {5, 6, 7, 8, 9, 10};
  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 24, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(device, 24, host.data(), 24, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  const int64_t dims[] = {6};
  acltdtDataItem* item =
      acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, device, 24);
  acltdtDataset* sent = acltdtCreateDataset();
  ASSERT_EQ(acltdtAddDataItem(sent, item), ACL_SUCCESS);
  ASSERT_EQ(acltdtSendTensor(channel, sent, 0), ACL_SUCCESS);
  acltdtDataset* got = acltdtCreateDataset();
  ASSERT_EQ(acltdtReceiveTensor(channel, got, 0), ACL_SUCCESS);
  const auto* values =
      static_cast<const float*>(acltdtGetDataAddrFromItem(acltdtGetDataItem(got, 0)));
  EXPECT_EQ(std::vector<float>(values, values + 6), host);
  acltdtDestroyDataset(got);
  acltdtDestroyDataset(sent);
  acltdtDestroyDataItem(item);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyChannel(channel), ACL_SUCCESS);
}

TEST_F(TdtTest, CapacityBoundsTheChannelAndTimeoutsWait) {
  acltdtChannelHandle* channel = acltdtCreateChannelWithCapacity(0, Name("cap").c_str(), 2);
  ASSERT_NE(channel, nullptr);
  float value = 1;
  const int64_t dims[] = {1};
  acltdtDataItem* item =
      acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, &value, 4);
  acltdtDataset* sent = acltdtCreateDataset();
  ASSERT_EQ(acltdtAddDataItem(sent, item), ACL_SUCCESS);
  ASSERT_EQ(acltdtSendTensor(channel, sent, 0), ACL_SUCCESS);
  ASSERT_EQ(acltdtSendTensor(channel, sent, 0), ACL_SUCCESS);
  EXPECT_EQ(acltdtSendTensor(channel, sent, 0), ACL_ERROR_RT_QUEUE_FULL);
  const absl::Time before = absl::Now();
  EXPECT_EQ(acltdtSendTensor(channel, sent, 100), ACL_ERROR_RT_QUEUE_FULL);
  EXPECT_GE(absl::Now() - before, absl::Milliseconds(100));
  // Clean empties it.
  ASSERT_EQ(acltdtCleanChannel(channel), ACL_SUCCESS);
  size_t size = 9;
  ASSERT_EQ(acltdtQueryChannelSize(channel, &size), ACL_SUCCESS);
  EXPECT_EQ(size, 0u);
  acltdtDataset* got = acltdtCreateDataset();
  EXPECT_EQ(acltdtReceiveTensor(channel, got, 0), ACL_ERROR_RT_QUEUE_EMPTY);
  // A receive that waits for ever gets what another thread sends later.
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
  std::thread sender([&] {
    aclrtSetCurrentContext(context);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(acltdtSendTensor(channel, sent, -1), ACL_SUCCESS);
  });
  EXPECT_EQ(acltdtReceiveTensor(channel, got, -1), ACL_SUCCESS);
  sender.join();
  EXPECT_EQ(acltdtGetDatasetSize(got), 1u);
  EXPECT_EQ(acltdtSendTensor(channel, sent, -2), ACL_ERROR_INVALID_PARAM);
  acltdtDestroyDataset(got);
  acltdtDestroyDataset(sent);
  acltdtDestroyDataItem(item);
  EXPECT_EQ(acltdtDestroyChannel(channel), ACL_SUCCESS);
}

TEST_F(TdtTest, BadChannelsAndItemsAreRefused) {
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, nullptr, 2), nullptr);
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, Name("c").c_str(), 1), nullptr);
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, Name("c").c_str(), 8193), nullptr);
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, std::string(128, 'n').c_str(), 2), nullptr);
  EXPECT_EQ(acltdtCreateChannelWithCapacity(999, Name("c").c_str(), 2), nullptr);
  EXPECT_EQ(acltdtCreateChannel(0, "TF_RECEIVE_x"), nullptr);
  acltdtChannelHandle* channel = acltdtCreateChannelWithCapacity(0, Name("c").c_str(), 2);
  ASSERT_NE(channel, nullptr);
  // The name is the device's now.
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, Name("c").c_str(), 2), nullptr);
  EXPECT_EQ(acltdtSendTensor(channel, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtSendTensor(nullptr, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyChannel(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtQueryChannelSize(channel, nullptr), ACL_ERROR_INVALID_PARAM);
  const int64_t dims[] = {1};
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 0, ACL_FLOAT, nullptr, 0), nullptr);
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, nullptr, 1, ACL_FLOAT, nullptr, 0),
            nullptr);
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_ABNORMAL, dims, 1, ACL_FLOAT, nullptr, 0),
            nullptr);
  std::vector<int64_t> many(129, 1);
  EXPECT_EQ(
      acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, many.data(), many.size(), ACL_FLOAT, nullptr, 0),
      nullptr);
  // Slices cannot be sent.
  acltdtDataItem* slice =
      acltdtCreateDataItem(ACL_TENSOR_DATA_SLICE_TENSOR, nullptr, 0, ACL_FLOAT, nullptr, 0);
  acltdtDataset* sent = acltdtCreateDataset();
  ASSERT_EQ(acltdtAddDataItem(sent, slice), ACL_SUCCESS);
  EXPECT_EQ(acltdtSendTensor(channel, sent, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGetTensorTypeFromItem(nullptr), ACL_TENSOR_DATA_UNDEFINED);
  EXPECT_EQ(acltdtGetDatasetSize(nullptr), 0u);
  acltdtDestroyDataset(sent);
  acltdtDestroyDataItem(slice);
  EXPECT_EQ(acltdtDestroyChannel(channel), ACL_SUCCESS);
}

TEST_F(TdtTest, QueuesCarryDataWithUserData) {
  uint32_t qid = CreateQueue(Name("q"), 3);
  const std::string message = "hello queue";
  const char user[] = "user!";
  ASSERT_EQ(acltdtEnqueueData(qid, message.data(), message.size(), user, sizeof(user), 0, 0),
            ACL_SUCCESS);
  char small[4];
  size_t length = 0;
  // Too small a buffer: the message stays, and its length is said.
  EXPECT_EQ(acltdtDequeueData(qid, small, sizeof(small), &length, nullptr, 0, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(length, message.size());
  char buffer[64] = {};
  char got_user[16] = {};
  ASSERT_EQ(acltdtDequeueData(qid, buffer, sizeof(buffer), &length, got_user, sizeof(got_user), 0),
            ACL_SUCCESS);
  EXPECT_EQ(std::string(buffer, length), message);
  EXPECT_STREQ(got_user, user);
  EXPECT_EQ(acltdtDequeueData(qid, buffer, sizeof(buffer), &length, nullptr, 0, 0),
            ACL_ERROR_RT_QUEUE_EMPTY);
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(acltdtEnqueueData(qid, "x", 1, nullptr, 0, 0, 0), ACL_SUCCESS);
  }
  EXPECT_EQ(acltdtEnqueueData(qid, "x", 1, nullptr, 0, 0, 0), ACL_ERROR_RT_QUEUE_FULL);
  EXPECT_EQ(acltdtEnqueueData(qid, "x", 0, nullptr, 0, 0, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyQueue(qid), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueue(qid), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(TdtTest, QueueAttributesAndTheirChecks) {
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  const char* name = "attr_queue";
  const char* got = nullptr;
  uint32_t depth = 0;
  size_t size = 0;
  ASSERT_EQ(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &size, &depth), ACL_SUCCESS);
  EXPECT_EQ(depth, 8u);  // the default
  ASSERT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(name), &name), ACL_SUCCESS);
  ASSERT_EQ(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(got), &size, &got),
            ACL_SUCCESS);
  EXPECT_STREQ(got, "attr_queue");
  EXPECT_EQ(size, sizeof(got));
  EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, 16, &name), ACL_ERROR_INVALID_PARAM);
  const std::string long_name(128, 'a');
  const char* too_long = long_name.c_str();
  EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(too_long), &too_long),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtSetQueueAttr(attr, static_cast<acltdtQueueAttrType>(7), 4, &depth),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 2, &size, &depth),
            ACL_ERROR_INVALID_PARAM);
  // A depth under 2 is refused when the queue is made.
  depth = 1;
  ASSERT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &depth), ACL_SUCCESS);
  uint32_t qid = 0;
  EXPECT_EQ(acltdtCreateQueue(attr, &qid), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(acltdtCreateQueue(attr, nullptr), ACL_ERROR_INVALID_PARAM);
  // No attributes: an unnamed queue of depth 8; several may exist.
  uint32_t a = 0, b = 0;
  ASSERT_EQ(acltdtCreateQueue(nullptr, &a), ACL_SUCCESS);
  ASSERT_EQ(acltdtCreateQueue(nullptr, &b), ACL_SUCCESS);
  EXPECT_NE(a, b);
  EXPECT_EQ(acltdtDestroyQueue(a), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueue(b), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueAttr(attr), ACL_SUCCESS);
  // Named twice: the second is refused as CANN's samples expect.
  aclError error = ACL_SUCCESS;
  const uint32_t first = CreateQueue(Name("twice"), 2);
  CreateQueue(Name("twice"), 2, &error);
  EXPECT_EQ(error, ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyQueue(first), ACL_SUCCESS);
  // Granting a queue to another process is not simulated; mbufs are
  // (mbuf_test).
  uint32_t permission = 0;
  EXPECT_EQ(acltdtGrantQueue(first, 1, ACL_TDT_QUEUE_PERMISSION_ENQUEUE, 0),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(acltdtAttachQueue(first, 0, &permission), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  acltdtBuf buf = nullptr;
  EXPECT_EQ(acltdtAllocBuf(16, 5, &buf), ACL_ERROR_INVALID_PARAM);
}

TEST_F(TdtTest, RoutesForwardWhatIsEnqueued) {
  const uint32_t src = CreateQueue(Name("src"), 4);
  const uint32_t dst = CreateQueue(Name("dst"), 4);
  const uint32_t third = CreateQueue(Name("third"), 4);
  acltdtQueueRoute* route = acltdtCreateQueueRoute(src, dst);
  acltdtQueueRouteList* list = acltdtCreateQueueRouteList();
  ASSERT_EQ(acltdtAddQueueRoute(list, route), ACL_SUCCESS);
  ASSERT_EQ(acltdtBindQueueRoutes(list), ACL_SUCCESS);
  acltdtQueueRoute* copy = acltdtCreateQueueRoute(0, 0);
  ASSERT_EQ(acltdtGetQueueRoute(list, 0, copy), ACL_SUCCESS);
  int32_t status = 0;
  size_t size = 0;
  ASSERT_EQ(acltdtGetQueueRouteParam(copy, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, 4, &size, &status),
            ACL_SUCCESS);
  EXPECT_EQ(status, ACL_TDT_QUEUE_ROUTE_BIND);
  EXPECT_EQ(acltdtGetQueueRoute(list, 1, copy), ACL_ERROR_INVALID_PARAM);

  // What goes into src comes out of dst.
  ASSERT_EQ(acltdtEnqueueData(src, "routed", 6, nullptr, 0, 0, 0), ACL_SUCCESS);
  char buffer[16] = {};
  size_t length = 0;
  ASSERT_EQ(acltdtDequeueData(dst, buffer, sizeof(buffer), &length, nullptr, 0, 0), ACL_SUCCESS);
  EXPECT_EQ(std::string(buffer, length), "routed");
  EXPECT_EQ(acltdtDequeueData(src, buffer, sizeof(buffer), &length, nullptr, 0, 0),
            ACL_ERROR_RT_QUEUE_EMPTY);

  // Queries by source, destination and pair.
  acltdtQueueRouteQueryInfo* query = acltdtCreateQueueRouteQueryInfo();
  acltdtQueueRouteList* found = acltdtCreateQueueRouteList();
  EXPECT_EQ(acltdtQueryQueueRoutes(query, found), ACL_ERROR_INVALID_PARAM);  // no mode
  int32_t mode = ACL_TDT_QUEUE_ROUTE_QUERY_DST;
  ASSERT_EQ(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, 4, &mode),
            ACL_SUCCESS);
  EXPECT_EQ(acltdtQueryQueueRoutes(query, found), ACL_ERROR_INVALID_PARAM);  // no dst
  ASSERT_EQ(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32, 4, &dst),
            ACL_SUCCESS);
  ASSERT_EQ(acltdtQueryQueueRoutes(query, found), ACL_SUCCESS);
  EXPECT_EQ(acltdtGetQueueRouteNum(found), 1u);
  ASSERT_EQ(acltdtSetQueueRouteQueryInfo(query, ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32, 4, &third),
            ACL_SUCCESS);
  ASSERT_EQ(acltdtQueryQueueRoutes(query, found), ACL_SUCCESS);
  EXPECT_EQ(acltdtGetQueueRouteNum(found), 0u);

  // A chain (dst -> third) and a loop are not bound.
  acltdtQueueRouteList* bad = acltdtCreateQueueRouteList();
  acltdtQueueRoute* chain = acltdtCreateQueueRoute(dst, third);
  ASSERT_EQ(acltdtAddQueueRoute(bad, chain), ACL_SUCCESS);
  EXPECT_EQ(acltdtBindQueueRoutes(bad), ACL_ERROR_FAILURE);
  acltdtQueueRouteList* loop = acltdtCreateQueueRouteList();
  acltdtQueueRoute* self = acltdtCreateQueueRoute(third, third);
  ASSERT_EQ(acltdtAddQueueRoute(loop, self), ACL_SUCCESS);
  EXPECT_EQ(acltdtBindQueueRoutes(loop), ACL_ERROR_FAILURE);

  // A queue with a bound route cannot go until the route does.
  EXPECT_EQ(acltdtDestroyQueue(src), ACL_ERROR_FAILURE);
  ASSERT_EQ(acltdtUnbindQueueRoutes(list), ACL_SUCCESS);
  ASSERT_EQ(acltdtUnbindQueueRoutes(list), ACL_SUCCESS);  // unbinding twice is fine
  for (acltdtQueueRouteList* l : {list, found, bad, loop}) {
    EXPECT_EQ(acltdtDestroyQueueRouteList(l), ACL_SUCCESS);
  }
  for (acltdtQueueRoute* r : {route, copy, chain, self})
    EXPECT_EQ(acltdtDestroyQueueRoute(r), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueRouteQueryInfo(query), ACL_SUCCESS);
  for (uint32_t q : {src, dst, third}) EXPECT_EQ(acltdtDestroyQueue(q), ACL_SUCCESS);
}

// A queue is its process's: while another process holds one, its name is
// taken and its id means nothing here; when that process ends, the queue
// goes with it.
TEST_F(TdtTest, AnotherProcesssQueueIsItsOwnAndGoesWithIt) {
  if (npud::testing::DaemonEnvironment::daemon() == nullptr) {
    GTEST_SKIP() << "in-process devices: no other process can reach them";
  }
  const std::string name = Name("peer");
  auto peer = npud::testing::ChildProcess::Spawn({TDT_PEER, name}, {});
  ASSERT_TRUE(peer.ok()) << peer.status();
  const std::string line = (*peer)->ReadLine(absl::Seconds(30));
  uint32_t peer_queue = 0;
  ASSERT_TRUE(absl::StartsWith(line, "QUEUE ") && absl::SimpleAtoi(line.substr(6), &peer_queue))
      << line;
  aclError error = ACL_SUCCESS;
  CreateQueue(name, 2, &error);
  EXPECT_EQ(error, ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtEnqueueData(peer_queue, "x", 1, nullptr, 0, 0, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(acltdtDestroyQueue(peer_queue), ACL_ERROR_RT_PARAM_INVALID);
  (*peer)->CloseStdin();
  EXPECT_EQ((*peer)->Wait(), 0);
  // The daemon notices the end of the session soon after.
  uint32_t mine = 0;
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  do {
    mine = CreateQueue(name, 2, &error);
    if (error == ACL_SUCCESS) break;
    absl::SleepFor(absl::Milliseconds(20));
  } while (absl::Now() < deadline);
  ASSERT_EQ(error, ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueue(mine), ACL_SUCCESS);
}

}  // namespace
