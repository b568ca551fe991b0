// The parameters of a captured model's tasks end to end: read back as they
// were launched (aclmdlRITaskGetParams, aclmdlRIKernelTaskGetAttribute),
// with the op information cached on them, changed or disabled
// (aclmdlRITaskSetParams, aclmdlRITaskDisable) for the runs after
// aclmdlRIUpdate only.

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"
#include "tests/e2e/kernels/e2e_kernel_args.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

constexpr uint32_t kN = 1024;

using npud::testing::AddFloatArgs;

class ModelTaskParamsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryLoadFromFile(E2E_KERNELS_PATH, nullptr, &binary_), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryGetFunction(binary_, "add_float", &add_), ACL_SUCCESS);
    for (float*& buffer : buffers_) {
      void* p = nullptr;
      ASSERT_EQ(aclrtMalloc(&p, kN * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      buffer = static_cast<float*>(p);
    }
    ASSERT_EQ(aclrtMalloc(&value_, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    Fill(x(), 1.0f);
    Fill(y(), 2.0f);
  }
  void TearDown() override {
    for (float* buffer : buffers_) EXPECT_EQ(aclrtFree(buffer), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(value_), ACL_SUCCESS);
    EXPECT_EQ(aclrtBinaryUnLoad(binary_), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStreamForce(stream_), ACL_SUCCESS);
  }

  float* x() { return buffers_[0]; }
  float* y() { return buffers_[1]; }
  float* z() { return buffers_[2]; }
  float* z2() { return buffers_[3]; }
  void Fill(float* device, float value) {
    std::vector<float> host(kN, value);
    ASSERT_EQ(aclrtMemcpy(device, kN * sizeof(float), host.data(), kN * sizeof(float),
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
  }
  float First(const float* device) {
    float value = 0;
    EXPECT_EQ(aclrtMemcpy(&value, sizeof(value), device, sizeof(value), ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return value;
  }
  uint64_t Value() {
    uint64_t value = 0;
    EXPECT_EQ(aclrtMemcpy(&value, sizeof(value), value_, sizeof(value), ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return value;
  }
  void Run(aclmdlRI model) {
    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  }
  void SetCacheSwitch(uint32_t on) {
    aclrtStreamAttrValue value{};
    value.cacheOpInfoSwitch = on;
    ASSERT_EQ(aclrtSetStreamAttribute(stream_, ACL_STREAM_ATTR_CACHE_OP_INFO, &value), ACL_SUCCESS);
  }

  // Captures: z = x + y on 4 blocks, launched with a schedule-mode
  // attribute and op information "add#1"; then *value_ = 5.
  aclmdlRI Capture() {
    aclmdlRI model = nullptr;
    EXPECT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    SetCacheSwitch(1);
    AddFloatArgs args{x(), y(), z(), kN};
    aclrtLaunchKernelAttr attr{};
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
    attr.value.schemMode = 1;
    aclrtLaunchKernelCfg cfg{&attr, 1};
    EXPECT_EQ(
        aclrtLaunchKernelWithHostArgs(add_, 4, stream_, &cfg, &args, sizeof(args), nullptr, 0),
        ACL_SUCCESS);
    EXPECT_EQ(aclrtCacheLastTaskOpInfo("add#1", 5), ACL_SUCCESS);
    EXPECT_EQ(aclrtCacheLastTaskExtendInfo("extended", 8), ACL_SUCCESS);
    EXPECT_EQ(aclrtValueWrite(value_, 5, 0, stream_), ACL_SUCCESS);
    SetCacheSwitch(0);
    EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    return model;
  }
  std::vector<aclmdlRITask> Tasks() {
    uint32_t count = 0;
    EXPECT_EQ(aclmdlRIGetTasksByStream(stream_, nullptr, &count), ACL_SUCCESS);
    std::vector<aclmdlRITask> tasks(count);
    EXPECT_EQ(aclmdlRIGetTasksByStream(stream_, tasks.data(), &count), ACL_SUCCESS);
    return tasks;
  }

  aclrtStream stream_ = nullptr;
  aclrtBinHandle binary_ = nullptr;
  aclrtFuncHandle add_ = nullptr;
  float* buffers_[4] = {};
  void* value_ = nullptr;
};

TEST_F(ModelTaskParamsTest, ParametersReadBackAsLaunched) {
  aclmdlRI model = Capture();
  ASSERT_NE(model, nullptr);
  const std::vector<aclmdlRITask> tasks = Tasks();
  ASSERT_EQ(tasks.size(), 2u);

  aclmdlRITaskParams params;
  ASSERT_EQ(aclmdlRITaskGetParams(tasks[0], &params), ACL_SUCCESS);
  EXPECT_EQ(params.type, ACL_MODEL_RI_TASK_KERNEL);
  const aclmdlRIKernelTaskParams& kernel = params.kernelTaskParams;
  EXPECT_EQ(kernel.funcHandle, add_);
  EXPECT_EQ(kernel.numBlocks, 4u);
  EXPECT_EQ(kernel.isHostArgs, 1u);
  ASSERT_EQ(kernel.argsSize, sizeof(AddFloatArgs));
  AddFloatArgs args;
  std::memcpy(&args, kernel.args, sizeof(args));
  EXPECT_EQ(args.z, z());
  EXPECT_EQ(args.n, kN);
  ASSERT_NE(kernel.cfg, nullptr);
  ASSERT_EQ(kernel.cfg->numAttrs, 1u);
  EXPECT_EQ(kernel.cfg->attrs[0].id, ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE);
  EXPECT_EQ(kernel.cfg->attrs[0].value.schemMode, 1);
  ASSERT_EQ(params.opInfoSize, 5u);
  EXPECT_EQ(std::string(static_cast<const char*>(params.opInfoPtr), 5), "add#1");

  aclrtLaunchKernelAttrValue value;
  ASSERT_EQ(aclmdlRIKernelTaskGetAttribute(tasks[0], ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &value),
            ACL_SUCCESS);
  EXPECT_EQ(value.schemMode, 1);
  ASSERT_EQ(aclmdlRIKernelTaskGetAttribute(tasks[0], ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, &value),
            ACL_SUCCESS);
  EXPECT_EQ(value.timeout, 0) << "not configured: the default";
  EXPECT_EQ(
      aclmdlRIKernelTaskGetAttribute(tasks[0], static_cast<aclrtLaunchKernelAttrId>(42), &value),
      ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclmdlRIKernelTaskGetAttribute(tasks[1], ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &value),
            ACL_ERROR_RT_PARAM_INVALID)
      << "a value write is not a kernel";

  ASSERT_EQ(aclmdlRITaskGetParams(tasks[1], &params), ACL_SUCCESS);
  EXPECT_EQ(params.type, ACL_MODEL_RI_TASK_VALUE_WRITE);
  EXPECT_EQ(params.valueWriteTaskParams.devAddr, value_);
  EXPECT_EQ(params.valueWriteTaskParams.value, 5u);
  EXPECT_EQ(params.opInfoPtr, nullptr);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRITaskGetParams(tasks[0], &params), ACL_ERROR_RT_PARAM_INVALID)
      << "its model is gone";
}

TEST_F(ModelTaskParamsTest, NewParametersRunAfterTheUpdateOnly) {
  aclmdlRI model = Capture();
  ASSERT_NE(model, nullptr);
  const std::vector<aclmdlRITask> tasks = Tasks();
  ASSERT_EQ(tasks.size(), 2u);

  // The kernel now writes z2 on 2 blocks, and the value write writes 9.
  aclmdlRITaskParams params;
  ASSERT_EQ(aclmdlRITaskGetParams(tasks[0], &params), ACL_SUCCESS);
  AddFloatArgs args{x(), x(), z2(), kN};
  params.kernelTaskParams.args = &args;
  params.kernelTaskParams.argsSize = sizeof(args);
  params.kernelTaskParams.numBlocks = 2;
  ASSERT_EQ(aclmdlRITaskSetParams(tasks[0], &params), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRITaskGetParams(tasks[1], &params), ACL_SUCCESS);
  params.valueWriteTaskParams.value = 9;
  ASSERT_EQ(aclmdlRITaskSetParams(tasks[1], &params), ACL_SUCCESS);
  // Read back at once, before the update.
  ASSERT_EQ(aclmdlRITaskGetParams(tasks[0], &params), ACL_SUCCESS);
  EXPECT_EQ(params.kernelTaskParams.numBlocks, 2u);

  Fill(z(), 0.0f);
  Fill(z2(), 0.0f);
  Run(model);
  EXPECT_EQ(First(z()), 3.0f) << "no update yet";
  EXPECT_EQ(First(z2()), 0.0f);
  EXPECT_EQ(Value(), 5u);

  ASSERT_EQ(aclmdlRIUpdate(model), ACL_SUCCESS);
  Fill(z(), 0.0f);
  Run(model);
  EXPECT_EQ(First(z()), 0.0f);
  EXPECT_EQ(First(z2()), 2.0f);
  EXPECT_EQ(Value(), 9u);

  // Disabled: the kernel no longer runs, the value write still does.
  ASSERT_EQ(aclmdlRITaskDisable(tasks[0]), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIUpdate(model), ACL_SUCCESS);
  Fill(z2(), 0.0f);
  uint64_t zero = 0;
  ASSERT_EQ(aclrtMemcpy(value_, 8, &zero, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  Run(model);
  EXPECT_EQ(First(z2()), 0.0f);
  EXPECT_EQ(Value(), 9u);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIUpdate(model), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_F(ModelTaskParamsTest, BadParametersAndCachesAreRefused) {
  aclmdlRI model = Capture();
  ASSERT_NE(model, nullptr);
  const std::vector<aclmdlRITask> tasks = Tasks();
  ASSERT_EQ(tasks.size(), 2u);
  aclmdlRITaskParams params;
  ASSERT_EQ(aclmdlRITaskGetParams(tasks[1], &params), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRITaskSetParams(tasks[0], &params), ACL_ERROR_RT_PARAM_INVALID)
      << "a kernel task stays a kernel task";
  params.valueWriteTaskParams.devAddr = static_cast<char*>(value_) + 3;
  EXPECT_EQ(aclmdlRITaskSetParams(tasks[1], &params), ACL_ERROR_RT_PARAM_INVALID) << "unaligned";
  ASSERT_EQ(aclmdlRITaskGetParams(tasks[0], &params), ACL_SUCCESS);
  params.kernelTaskParams.funcHandle = reinterpret_cast<aclrtFuncHandle>(0x1234);
  EXPECT_EQ(aclmdlRITaskSetParams(tasks[0], &params), ACL_ERROR_RT_INVALID_HANDLE);
  params.kernelTaskParams.funcHandle = add_;
  params.kernelTaskParams.numBlocks = 0;
  EXPECT_EQ(aclmdlRITaskSetParams(tasks[0], &params), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclmdlRITaskSetParams(tasks[0], nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRITaskGetParams(nullptr, &params), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRITaskDisable(reinterpret_cast<aclmdlRITask>(0x99)), ACL_ERROR_RT_PARAM_INVALID);
  // Nothing was accepted: the model runs as captured.
  ASSERT_EQ(aclmdlRIUpdate(model), ACL_SUCCESS);
  Fill(z(), 0.0f);
  Run(model);
  EXPECT_EQ(First(z()), 3.0f);
  EXPECT_EQ(Value(), 5u);

  // Op information needs a capturing stream with the switch on, and 1 to
  // 64K bytes.
  EXPECT_EQ(aclrtValueWrite(value_, 1, 0, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtCacheLastTaskOpInfo("x", 1), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  EXPECT_EQ(aclrtValueWrite(value_, 1, 0, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtCacheLastTaskOpInfo("x", 1), ACL_ERROR_RT_PARAM_INVALID) << "switch off";
  SetCacheSwitch(1);
  EXPECT_EQ(aclrtCacheLastTaskOpInfo("x", 0), ACL_ERROR_RT_PARAM_INVALID);
  std::string big((64 << 10) + 1, 'b');
  EXPECT_EQ(aclrtCacheLastTaskOpInfo(big.data(), big.size()), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtCacheLastTaskOpInfo(big.data(), 64 << 10), ACL_SUCCESS);
  EXPECT_EQ(aclrtCacheLastTaskOpInfo(nullptr, 1), ACL_ERROR_INVALID_PARAM);
  aclmdlRI second = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &second), ACL_SUCCESS);
  const std::vector<aclmdlRITask> second_tasks = Tasks();
  ASSERT_EQ(second_tasks.size(), 1u);
  ASSERT_EQ(aclmdlRITaskGetParams(second_tasks[0], &params), ACL_SUCCESS);
  EXPECT_EQ(params.opInfoSize, size_t{64 << 10});
  EXPECT_EQ(aclmdlRIDestroy(second), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

}  // namespace
