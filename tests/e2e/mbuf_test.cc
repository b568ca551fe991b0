// Shared buffers (aclrt*Buf, and the acltdt*Buf forms of acl_tdt_queue.h)
// against a real npud: the data block and its length, the private area,
// references to one block, chains, queues carrying buffers, and the checks
// on each argument.

#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_tdt_queue.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

class MbufTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS); }
  void TearDown() override { EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS); }
};

TEST_F(MbufTest, TheDataBlockIsWritableInPlaceAndCopiesToTheDevice) {
  aclrtMbuf buf = nullptr;
  ASSERT_EQ(aclrtAllocBuf(&buf, 4096), ACL_SUCCESS);
  void* data = nullptr;
  size_t size = 0;
  ASSERT_EQ(aclrtGetBufData(buf, &data, &size), ACL_SUCCESS);
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(size, 4096u);
  size_t length = 1;
  ASSERT_EQ(aclrtGetBufDataLen(buf, &length), ACL_SUCCESS);
  EXPECT_EQ(length, 0u) << "a new buffer holds no valid data";

  std::vector<unsigned char> pattern(4096);
  for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<unsigned char>(i * 7);
  std::memcpy(data, pattern.data(), pattern.size());
  ASSERT_EQ(aclrtSetBufDataLen(buf, 1000), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetBufDataLen(buf, &length), ACL_SUCCESS);
  EXPECT_EQ(length, 1000u);
  EXPECT_EQ(aclrtSetBufDataLen(buf, 4097), ACL_ERROR_RT_PARAM_INVALID);

  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(device, 4096, data, 4096, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  std::vector<unsigned char> back(4096);
  ASSERT_EQ(aclrtMemcpy(back.data(), back.size(), device, 4096, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(back, pattern);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeBuf(buf), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeBuf(buf), ACL_ERROR_RT_PARAM_INVALID) << "a freed handle";
}

TEST_F(MbufTest, UserDataStaysInsideThePrivateArea) {
  aclrtMbuf buf = nullptr;
  ASSERT_EQ(aclrtAllocBuf(&buf, 64), ACL_SUCCESS);
  const char text[] = "control block";
  ASSERT_EQ(aclrtSetBufUserData(buf, text, sizeof(text), 80), ACL_SUCCESS);
  char out[sizeof(text)] = {};
  ASSERT_EQ(aclrtGetBufUserData(buf, out, sizeof(out), 80), ACL_SUCCESS);
  EXPECT_STREQ(out, text);
  char zeros[16] = {1};
  ASSERT_EQ(aclrtGetBufUserData(buf, zeros, sizeof(zeros), 0), ACL_SUCCESS);
  for (char c : zeros) EXPECT_EQ(c, 0) << "the private area starts zeroed";

  // 96 bytes in all; the bound is checked before the handle.
  EXPECT_EQ(aclrtSetBufUserData(buf, text, 17, 80), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetBufUserData(nullptr, out, 97, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetBufUserData(buf, nullptr, 4, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetBufUserData(buf, out, 0, 0), ACL_ERROR_FAILURE);
  EXPECT_EQ(aclrtGetBufUserData(buf, out, 4, static_cast<size_t>(-1)), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFreeBuf(buf), ACL_SUCCESS);
}

TEST_F(MbufTest, ACopiedReferenceSharesTheBlockAndOutlivesTheOriginal) {
  aclrtMbuf buf = nullptr;
  ASSERT_EQ(aclrtAllocBuf(&buf, 128), ACL_SUCCESS);
  void* data = nullptr;
  size_t size = 0;
  ASSERT_EQ(aclrtGetBufData(buf, &data, &size), ACL_SUCCESS);
  std::memset(data, 0x5a, size);
  ASSERT_EQ(aclrtSetBufDataLen(buf, 100), ACL_SUCCESS);

  aclrtMbuf copy = nullptr;
  ASSERT_EQ(aclrtCopyBufRef(buf, &copy), ACL_SUCCESS);
  ASSERT_NE(copy, buf);
  void* copy_data = nullptr;
  ASSERT_EQ(aclrtGetBufData(copy, &copy_data, &size), ACL_SUCCESS);
  EXPECT_EQ(copy_data, data);
  size_t length = 0;
  ASSERT_EQ(aclrtGetBufDataLen(copy, &length), ACL_SUCCESS);
  EXPECT_EQ(length, 100u);

  ASSERT_EQ(aclrtFreeBuf(buf), ACL_SUCCESS);
  EXPECT_EQ(static_cast<unsigned char*>(copy_data)[127], 0x5a) << "the block lives on";
  EXPECT_EQ(aclrtFreeBuf(copy), ACL_SUCCESS);
}

TEST_F(MbufTest, ChainsCountIndexAndGoWithTheirHead) {
  std::vector<aclrtMbuf> bufs(3);
  for (aclrtMbuf& buf : bufs) ASSERT_EQ(aclrtAllocBuf(&buf, 32), ACL_SUCCESS);
  uint32_t count = 0;
  ASSERT_EQ(aclrtGetBufChainNum(bufs[0], &count), ACL_SUCCESS);
  EXPECT_EQ(count, 1u) << "a lone buffer is a chain of one";
  ASSERT_EQ(aclrtAppendBufChain(bufs[0], bufs[1]), ACL_SUCCESS);
  ASSERT_EQ(aclrtAppendBufChain(bufs[0], bufs[2]), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetBufChainNum(bufs[0], &count), ACL_SUCCESS);
  EXPECT_EQ(count, 3u);
  for (uint32_t i = 0; i < 3; ++i) {
    aclrtMbuf at = nullptr;
    ASSERT_EQ(aclrtGetBufFromChain(bufs[0], i, &at), ACL_SUCCESS);
    EXPECT_EQ(at, bufs[i]) << i;
  }
  aclrtMbuf at = nullptr;
  EXPECT_EQ(aclrtGetBufFromChain(bufs[0], 3, &at), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtAppendBufChain(bufs[0], bufs[1]), ACL_ERROR_RT_PARAM_INVALID) << "in a chain";
  EXPECT_EQ(aclrtAppendBufChain(bufs[0], bufs[0]), ACL_ERROR_RT_PARAM_INVALID) << "itself";
  EXPECT_EQ(aclrtFreeBuf(bufs[1]), ACL_ERROR_RT_PARAM_INVALID) << "a member, not the head";

  ASSERT_EQ(aclrtFreeBuf(bufs[0]), ACL_SUCCESS);
  void* data = nullptr;
  size_t size = 0;
  EXPECT_EQ(aclrtGetBufData(bufs[2], &data, &size), ACL_ERROR_RT_PARAM_INVALID)
      << "freed with its head";
}

TEST_F(MbufTest, NullAndUnknownHandlesAreRefused) {
  aclrtMbuf buf = nullptr;
  EXPECT_EQ(aclrtAllocBuf(nullptr, 8), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtAllocBuf(&buf, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFreeBuf(nullptr), ACL_ERROR_INVALID_PARAM);
  int not_a_buffer = 0;
  void* data = nullptr;
  size_t size = 0;
  uint32_t count = 0;
  EXPECT_EQ(aclrtGetBufData(&not_a_buffer, &data, &size), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtGetBufData(&not_a_buffer, nullptr, &size), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetBufChainNum(&not_a_buffer, &count), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtCopyBufRef(&not_a_buffer, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtAllocBuf(8, 7, &buf), ACL_ERROR_INVALID_PARAM) << "not an acltdtAllocBufType";
}

TEST_F(MbufTest, AQueueCarriesABufferWithItsUserData) {
  uint32_t qid = 0;
  ASSERT_EQ(acltdtCreateQueue(nullptr, &qid), ACL_SUCCESS);
  acltdtBuf buf = nullptr;
  ASSERT_EQ(acltdtAllocBuf(256, ACL_TDT_NORMAL_MEM, &buf), ACL_SUCCESS);
  EXPECT_EQ(acltdtEnqueue(qid, buf, 0), ACL_ERROR_INVALID_PARAM) << "no valid data yet";
  void* data = nullptr;
  size_t size = 0;
  ASSERT_EQ(acltdtGetBufData(buf, &data, &size), ACL_SUCCESS);
  const std::string payload = "tensor bytes";
  std::memcpy(data, payload.data(), payload.size());
  ASSERT_EQ(acltdtSetBufDataLen(buf, payload.size()), ACL_SUCCESS);
  const uint32_t tag = 0xfeedbeef;
  ASSERT_EQ(acltdtSetBufUserData(buf, &tag, sizeof(tag), 8), ACL_SUCCESS);
  ASSERT_EQ(acltdtEnqueue(qid, buf, 0), ACL_SUCCESS);
  EXPECT_EQ(acltdtFreeBuf(buf), ACL_ERROR_RT_PARAM_INVALID) << "the queue took it over";

  acltdtBuf got = nullptr;
  ASSERT_EQ(acltdtDequeue(qid, &got, 1000), ACL_SUCCESS);
  size_t length = 0;
  ASSERT_EQ(acltdtGetBufDataLen(got, &length), ACL_SUCCESS);
  ASSERT_EQ(length, payload.size());
  ASSERT_EQ(acltdtGetBufData(got, &data, &size), ACL_SUCCESS);
  EXPECT_EQ(std::string(static_cast<char*>(data), length), payload);
  uint32_t got_tag = 0;
  ASSERT_EQ(acltdtGetBufUserData(got, &got_tag, sizeof(got_tag), 8), ACL_SUCCESS);
  EXPECT_EQ(got_tag, tag);
  EXPECT_EQ(acltdtFreeBuf(got), ACL_SUCCESS);

  EXPECT_EQ(acltdtDequeue(qid, &got, 0), ACL_ERROR_RT_QUEUE_EMPTY);
  acltdtBuf head = nullptr, tail = nullptr;
  ASSERT_EQ(acltdtAllocBuf(8, ACL_TDT_NORMAL_MEM, &head), ACL_SUCCESS);
  ASSERT_EQ(acltdtAllocBuf(8, ACL_TDT_NORMAL_MEM, &tail), ACL_SUCCESS);
  ASSERT_EQ(acltdtAppendBufChain(head, tail), ACL_SUCCESS);
  ASSERT_EQ(acltdtSetBufDataLen(head, 8), ACL_SUCCESS);
  EXPECT_EQ(acltdtEnqueue(qid, head, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT) << "a chain";
  EXPECT_EQ(acltdtFreeBuf(head), ACL_SUCCESS) << "a refused buffer stays the caller's";
  EXPECT_EQ(acltdtDestroyQueue(qid), ACL_SUCCESS);
}

}  // namespace
