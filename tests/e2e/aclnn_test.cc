// The aclnn operator library (libopapi.so / libnnopbase.so) as CANN
// programs use it, against a real npud on every transport: aclnnAdd and
// aclnnMul over float, fp16 and integer tensors with broadcasting, strided
// views and alpha, checked against results computed here; bad tensors get
// aclnn's codes.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

class AclnnTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    for (aclTensor* t : tensors_) aclDestroyTensor(t);
    for (void* p : buffers_) aclrtFree(p);
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
  }

  // A contiguous tensor of `shape` holding `values` (bytes of the type).
  template <typename T>
  aclTensor* Tensor(const std::vector<int64_t>& shape, const std::vector<T>& values,
                    aclDataType type) {
    void* device = nullptr;
    const size_t bytes = std::max<size_t>(values.size() * sizeof(T), 1);
    EXPECT_EQ(aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    if (!values.empty()) {
      EXPECT_EQ(aclrtMemcpy(device, bytes, values.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), 0);
    }
    buffers_.push_back(device);
    aclTensor* tensor = aclCreateTensor(shape.data(), shape.size(), type, nullptr, 0, ACL_FORMAT_ND,
                                        shape.data(), shape.size(), device);
    tensors_.push_back(tensor);
    data_[tensor] = device;
    return tensor;
  }

  template <typename T>
  std::vector<T> Read(aclTensor* tensor, size_t count) {
    std::vector<T> values(count);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(values.data(), count * sizeof(T), data_[tensor], count * sizeof(T),
                          ACL_MEMCPY_DEVICE_TO_HOST),
              0);
    return values;
  }

  aclnnStatus Add(aclTensor* self, aclTensor* other, aclScalar* alpha, aclTensor* out) {
    uint64_t workspace = 99;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus prepared =
        aclnnAddGetWorkspaceSize(self, other, alpha, out, &workspace, &executor);
    if (prepared != ACLNN_SUCCESS) return prepared;
    EXPECT_EQ(workspace, 0u);
    return aclnnAdd(nullptr, workspace, executor, stream_);
  }

  aclrtStream stream_ = nullptr;
  std::vector<aclTensor*> tensors_;
  std::vector<void*> buffers_;
  std::map<aclTensor*, void*> data_;
};

TEST_F(AclnnTest, AddWithAlphaAsTheQuickstartDoes) {
  const std::vector<float> a = {0, 1, 2, 3, 4, 5, 6, 7}, b = {1, 1, 1, 2, 2, 2, 3, 3};
  aclTensor* self = Tensor<float>({4, 2}, a, ACL_FLOAT);
  aclTensor* other = Tensor<float>({4, 2}, b, ACL_FLOAT);
  aclTensor* out = Tensor<float>({4, 2}, std::vector<float>(8), ACL_FLOAT);
  float alpha_value = 1.5f;
  aclScalar* alpha = aclCreateScalar(&alpha_value, ACL_FLOAT);
  ASSERT_EQ(Add(self, other, alpha, out), ACLNN_SUCCESS);
  const std::vector<float> z = Read<float>(out, 8);
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(z[i], a[i] + 1.5f * b[i]) << i;
  aclDestroyScalar(alpha);
}

// A row broadcast over a matrix, in fp16, and an integer Mul with a column.
TEST_F(AclnnTest, BroadcastingAndTypes) {
  const uint16_t one = 0x3C00, half = 0x3800, two = 0x4000;
  aclTensor* matrix = Tensor<uint16_t>({2, 3}, {one, two, half, half, half, one}, ACL_FLOAT16);
  aclTensor* row = Tensor<uint16_t>({3}, {one, one, two}, ACL_FLOAT16);
  aclTensor* out = Tensor<uint16_t>({2, 3}, std::vector<uint16_t>(6), ACL_FLOAT16);
  int32_t alpha_value = 1;
  aclScalar* alpha = aclCreateScalar(&alpha_value, ACL_INT32);
  ASSERT_EQ(Add(matrix, row, alpha, out), ACLNN_SUCCESS);
  // 1+1, 2+1, 0.5+2, 0.5+1, 0.5+1, 1+2 in fp16.
  EXPECT_EQ(Read<uint16_t>(out, 6),
            (std::vector<uint16_t>{0x4000, 0x4200, 0x4100, 0x3E00, 0x3E00, 0x4200}));
  aclDestroyScalar(alpha);

  aclTensor* ints = Tensor<int32_t>({2, 3}, {1, 2, 3, -4, 5, -6}, ACL_INT32);
  aclTensor* column = Tensor<int32_t>({2, 1}, {10, -3}, ACL_INT32);
  aclTensor* product = Tensor<int32_t>({2, 3}, std::vector<int32_t>(6), ACL_INT32);
  uint64_t workspace = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnMulGetWorkspaceSize(ints, column, product, &workspace, &executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnMul(nullptr, 0, executor, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(Read<int32_t>(product, 6), (std::vector<int32_t>{10, 20, 30, 12, -15, 18}));
}

// Enough elements for several blocks, from a strided (transposed) view.
TEST_F(AclnnTest, ManyElementsAndAStridedView) {
  constexpr int64_t kRows = 300, kCols = 700;
  std::vector<float> a(kRows * kCols), b(kRows * kCols);
  for (int64_t i = 0; i < kRows * kCols; ++i) {
    a[i] = static_cast<float>(i % 97);
    b[i] = static_cast<float>(i % 13);
  }
  aclTensor* self = Tensor<float>({kRows, kCols}, a, ACL_FLOAT);
  // other: b's memory read as its transpose's transpose, through strides.
  void* b_device = nullptr;
  ASSERT_EQ(aclrtMalloc(&b_device, b.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  buffers_.push_back(b_device);
  ASSERT_EQ(aclrtMemcpy(b_device, b.size() * 4, b.data(), b.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE),
            0);
  const int64_t shape[] = {kRows, kCols};
  const int64_t transposed_strides[] = {1, kRows};  // b laid out as [kCols][kRows]
  aclTensor* other = aclCreateTensor(shape, 2, ACL_FLOAT, transposed_strides, 0, ACL_FORMAT_ND,
                                     shape, 2, b_device);
  tensors_.push_back(other);
  aclTensor* out = Tensor<float>({kRows, kCols}, std::vector<float>(a.size()), ACL_FLOAT);
  uint64_t workspace = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnMulGetWorkspaceSize(self, other, out, &workspace, &executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnMul(nullptr, 0, executor, stream_), ACLNN_SUCCESS);
  const std::vector<float> z = Read<float>(out, a.size());
  for (int64_t r = 0; r < kRows; ++r) {
    for (int64_t c = 0; c < kCols; ++c) {
      ASSERT_EQ(z[r * kCols + c], a[r * kCols + c] * b[c * kRows + r]) << r << "," << c;
    }
  }
}

TEST_F(AclnnTest, BadTensorsGetAclnnCodes) {
  aclTensor* self = Tensor<float>({2, 3}, std::vector<float>(6), ACL_FLOAT);
  aclTensor* other = Tensor<float>({4}, std::vector<float>(4), ACL_FLOAT);
  aclTensor* out = Tensor<float>({2, 3}, std::vector<float>(6), ACL_FLOAT);
  aclTensor* bigger = Tensor<float>({3, 2, 3}, std::vector<float>(18), ACL_FLOAT);
  aclTensor* strings = Tensor<uint8_t>({6}, std::vector<uint8_t>(6), ACL_STRING);
  float one = 1;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t workspace = 0;
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(aclnnAddGetWorkspaceSize(self, other, alpha, out, &workspace, &executor),
            ACLNN_ERR_PARAM_INVALID)
      << "shapes that do not broadcast";
  EXPECT_EQ(aclnnAddGetWorkspaceSize(self, self, alpha, bigger, &workspace, &executor),
            ACLNN_ERR_PARAM_INVALID)
      << "out larger than the broadcast";
  EXPECT_EQ(aclnnAddGetWorkspaceSize(self, self, nullptr, out, &workspace, &executor),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnAddGetWorkspaceSize(self, self, alpha, out, nullptr, &executor),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnMulGetWorkspaceSize(strings, strings, strings, &workspace, &executor),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnAdd(nullptr, 0, nullptr, stream_), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclCreateScalar(nullptr, ACL_FLOAT), nullptr);
  aclDestroyScalar(alpha);
}

}  // namespace
