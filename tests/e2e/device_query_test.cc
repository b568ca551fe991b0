// What a program asks about its devices, streams and events, and the
// process settings it makes, against a real npud: id mappings, UUID and PCI
// bus ids, topology, peer access and atomics, device limits, system
// parameters, the primary context's state, stream configurations and
// attributes, event ids and the counts left.

#include <chrono>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <thread>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

uint32_t DeviceCount() {
  uint32_t count = 0;
  EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  return count;
}

std::string Hex(const aclrtUuid& uuid) {
  std::string text;
  for (char byte : uuid.bytes) {
    char pair[3];
    std::snprintf(pair, sizeof(pair), "%02x", static_cast<unsigned char>(byte));
    text += pair;
  }
  return text;
}

TEST(DeviceIdentityTest, IdMappingsRoundTripAndCheckTheirArguments) {
  const int32_t count = static_cast<int32_t>(DeviceCount());
  ASSERT_GE(count, 2);
  for (int32_t user = 0; user < count; ++user) {
    int32_t logic = -1, back = -1, phy = -1;
    ASSERT_EQ(aclrtGetLogicDevIdByUserDevId(user, &logic), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetUserDevIdByLogicDevId(logic, &back), ACL_SUCCESS);
    EXPECT_EQ(back, user);
    ASSERT_EQ(aclrtGetPhyDevIdByUserDevId(user, &phy), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetUserDevIdByPhyDevId(phy, &back), ACL_SUCCESS);
    EXPECT_EQ(back, user);
    ASSERT_EQ(aclrtGetPhyDevIdByLogicDevId(logic, &phy), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetLogicDevIdByPhyDevId(phy, &back), ACL_SUCCESS);
    EXPECT_EQ(back, logic);
  }
  int32_t out = 0;
  EXPECT_EQ(aclrtGetLogicDevIdByUserDevId(-1, &out), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtGetLogicDevIdByUserDevId(count, &out), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtGetPhyDevIdByUserDevId(count + 5, &out), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtGetUserDevIdByLogicDevId(0, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST(DeviceIdentityTest, UuidsAreStableAndDistinct) {
  const int32_t count = static_cast<int32_t>(DeviceCount());
  std::set<std::string> seen;
  for (int32_t device = 0; device < count; ++device) {
    aclrtUuid first{}, again{};
    ASSERT_EQ(aclrtDeviceGetUuid(device, &first), ACL_SUCCESS);
    ASSERT_EQ(aclrtDeviceGetUuid(device, &again), ACL_SUCCESS);
    EXPECT_EQ(Hex(first), Hex(again));
    EXPECT_EQ(static_cast<unsigned char>(first.bytes[6]) >> 4, 8) << "version";
    EXPECT_EQ(static_cast<unsigned char>(first.bytes[8]) >> 6, 2) << "variant";
    seen.insert(Hex(first));
  }
  EXPECT_EQ(seen.size(), static_cast<size_t>(count));
  aclrtUuid uuid{};
  EXPECT_EQ(aclrtDeviceGetUuid(count, &uuid), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtDeviceGetUuid(-1, &uuid), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtDeviceGetUuid(0, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST(DeviceIdentityTest, PciBusIdsRoundTrip) {
  const int32_t count = static_cast<int32_t>(DeviceCount());
  for (int32_t device = 0; device < count; ++device) {
    char bus_id[13] = {};
    ASSERT_EQ(aclrtDeviceGetPCIBusId(device, bus_id, sizeof(bus_id)), ACL_SUCCESS);
    EXPECT_EQ(std::strlen(bus_id), 12u) << bus_id;
    unsigned domain = 0, bus = 0, slot = 0, function = 0;
    EXPECT_EQ(std::sscanf(bus_id, "%4x:%2x:%2x.%1x", &domain, &bus, &slot, &function), 4);
    int32_t found = -1;
    ASSERT_EQ(aclrtDeviceGetByPCIBusId(bus_id, &found), ACL_SUCCESS);
    EXPECT_EQ(found, device);
  }
  char small[12];
  EXPECT_EQ(aclrtDeviceGetPCIBusId(0, small, sizeof(small)), ACL_ERROR_RT_PARAM_INVALID);
  char bus_id[16];
  EXPECT_EQ(aclrtDeviceGetPCIBusId(count, bus_id, sizeof(bus_id)), ACL_ERROR_RT_INVALID_DEVICEID);
  int32_t found = -1;
  EXPECT_EQ(aclrtDeviceGetByPCIBusId("ffff:ff:1f.7", &found), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(found, -1);
  EXPECT_EQ(aclrtDeviceGetByPCIBusId(nullptr, &found), ACL_ERROR_INVALID_PARAM);
}

TEST(DeviceIdentityTest, TopologyPeerAccessAndAtomics) {
  uint64_t topology = 0;
  ASSERT_EQ(aclrtGetDevicesTopo(0, 1, &topology), ACL_SUCCESS);
  EXPECT_EQ(topology, ACL_RT_DEVS_TOPOLOGY_HCCS);  // One daemon: one server.
  EXPECT_EQ(aclrtGetDevicesTopo(0, 99, &topology), ACL_ERROR_RT_INVALID_DEVICEID);

  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  int32_t status = -1;
  ASSERT_EQ(aclrtDevicePeerAccessStatus(0, 1, &status), ACL_SUCCESS);
  EXPECT_EQ(status, 0);
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtDevicePeerAccessStatus(0, 1, &status), ACL_SUCCESS);
  EXPECT_EQ(status, 1);
  ASSERT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtDevicePeerAccessStatus(0, 1, &status), ACL_SUCCESS);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(aclrtDevicePeerAccessStatus(0, 64, &status), ACL_ERROR_RT_PARAM_INVALID);

  const aclrtAtomicOperation operations[] = {ACL_RT_ATOMIC_OPERATION_INTEGER_ADD,
                                             ACL_RT_ATOMIC_OPERATION_DMA_ADD};
  uint32_t capabilities[2] = {0xdead, 0xbeef};
  ASSERT_EQ(aclrtDeviceGetHostAtomicCapabilities(capabilities, operations, 2, 0), ACL_SUCCESS);
  EXPECT_EQ(capabilities[0], 0u);
  EXPECT_EQ(capabilities[1], 0u);
  EXPECT_EQ(aclrtDeviceGetP2PAtomicCapabilities(capabilities, operations, 2, 0, 0),
            ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtDeviceGetHostAtomicCapabilities(capabilities, operations, 0, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  const aclrtAtomicOperation bad[] = {static_cast<aclrtAtomicOperation>(45)};
  EXPECT_EQ(aclrtDeviceGetP2PAtomicCapabilities(capabilities, bad, 1, 0, 1),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

TEST(DeviceSettingsTest, LimitsAreCheckedRoundedAndCheckedAgainAtSetDevice) {
  size_t value = 0;
  ASSERT_EQ(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 32u << 10);
  ASSERT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 16 << 10), ACL_SUCCESS);
  ASSERT_EQ(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 32u << 10) << "at or below the default: ignored";
  ASSERT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 50000), ACL_SUCCESS);
  ASSERT_EQ(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 65536u) << "rounded up to 16 KiB";

  // Too large: accepted now, refused by the next device open.
  ASSERT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 256 << 10), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDevice(2), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 64 << 10), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(2), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(2), ACL_SUCCESS);

  EXPECT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 100),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 4097),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, &value),
            ACL_SUCCESS);
  EXPECT_EQ(value, 4104u);
  EXPECT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, 4096),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, &value),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtDeviceSetLimit(static_cast<aclrtDeviceLimit>(5), 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, size_t{1} << 33),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, nullptr),
            ACL_ERROR_INVALID_PARAM);
}

TEST(DeviceSettingsTest, SystemParametersPerProcessAndPerContext) {
  int64_t value = -1;
  ASSERT_EQ(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value), ACL_SUCCESS);
  const int64_t original = value;
  ASSERT_EQ(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 2), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 2);
  EXPECT_EQ(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 4), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 2), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSetSysParamOpt(static_cast<aclSysParamOpt>(4), 0), ACL_ERROR_INVALID_PARAM);

  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtContext a = nullptr, b = nullptr;
  ASSERT_EQ(aclrtCreateContext(&a, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value),
            ACL_ERROR_RT_SYSPARAMOPT_NOT_SET);
  ASSERT_EQ(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateContext(&b, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetCurrentContext(a), ACL_SUCCESS);
  ASSERT_EQ(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 1);
  ASSERT_EQ(aclrtSetCurrentContext(b), ACL_SUCCESS);
  ASSERT_EQ(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 0);
  EXPECT_EQ(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtDestroyContext(a), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyContext(b), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);

  ASSERT_EQ(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, original), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value), ACL_SUCCESS);
  EXPECT_EQ(value, original);
}

TEST(DeviceSettingsTest, PrimaryContextStateFollowsSetAndReset) {
  int32_t active = -1;
  ASSERT_EQ(aclrtGetPrimaryCtxState(3, nullptr, &active), ACL_SUCCESS);
  EXPECT_EQ(active, 0);
  ASSERT_EQ(aclrtSetDevice(3), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetPrimaryCtxState(3, nullptr, &active), ACL_SUCCESS);
  EXPECT_EQ(active, 1);
  ASSERT_EQ(aclrtResetDeviceForce(3), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetPrimaryCtxState(3, nullptr, &active), ACL_SUCCESS);
  EXPECT_EQ(active, 0);
  uint32_t flags = 0;
  EXPECT_EQ(aclrtGetPrimaryCtxState(3, &flags, &active), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetPrimaryCtxState(99, nullptr, &active), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtSetTsDevice(ACL_TS_ID_AIVECTOR), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetTsDevice(ACL_TS_ID_RESERVED), ACL_ERROR_INVALID_PARAM);
}

class StreamQueryTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS); }
  void TearDown() override { EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS); }
};

TEST_F(StreamQueryTest, ConfiguredStreamsReportPriorityAndFlags) {
  aclrtStreamConfigHandle* config = aclrtCreateStreamConfigHandle();
  ASSERT_NE(config, nullptr);
  const uint32_t flag = ACL_STREAM_FAST_SYNC;
  const uint32_t priority = 3;
  ASSERT_EQ(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_FLAG, &flag, sizeof(flag)), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY, &priority, sizeof(priority)),
            ACL_SUCCESS);
  const uint32_t too_low = 8;
  EXPECT_EQ(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_PRIORITY, &too_low, sizeof(too_low)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetStreamConfigOpt(config, ACL_RT_STREAM_WORK_SIZE, &flag, sizeof(flag)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetStreamConfigOpt(config, static_cast<aclrtStreamConfigAttr>(4), &flag, 4),
            ACL_ERROR_INVALID_PARAM);

  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStreamV2(&stream, config), ACL_SUCCESS);
  uint32_t value = 0;
  ASSERT_EQ(aclrtStreamGetPriority(stream, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 3u);
  ASSERT_EQ(aclrtStreamGetFlags(stream, &value), ACL_SUCCESS);
  EXPECT_EQ(value, ACL_STREAM_FAST_SYNC);
  // The stream works.
  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(device, 64, 7, 64, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  char host[64] = {};
  ASSERT_EQ(aclrtMemcpy(host, 64, device, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(host[63], 7);
  ASSERT_EQ(aclrtFree(device), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStreamConfigHandle(config), ACL_SUCCESS);

  ASSERT_EQ(aclrtCreateStreamV2(&stream, nullptr), ACL_SUCCESS);  // Defaults.
  ASSERT_EQ(aclrtStreamGetPriority(stream, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 0u);
  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamGetFlags(nullptr, &value), ACL_SUCCESS);  // The default stream.
  EXPECT_EQ(value, 0u);
  EXPECT_EQ(aclrtStreamGetFlags(stream, &value), ACL_ERROR_RT_INVALID_HANDLE);  // Destroyed.
  EXPECT_EQ(aclrtCreateStreamV2(nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(StreamQueryTest, AttributesAreKeptPerStream) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStreamWithConfig(&stream, 9, 0), ACL_SUCCESS);
  aclrtStreamAttrValue value{};
  ASSERT_EQ(aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, &value), ACL_SUCCESS);
  EXPECT_EQ(value.streamPriority, 7u) << "clamped at creation";
  value.streamPriority = 2;
  ASSERT_EQ(aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, &value), ACL_SUCCESS);
  value.userCustomTag = 0xabcd;
  ASSERT_EQ(aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &value), ACL_SUCCESS);
  value.cacheOpInfoSwitch = 1;
  ASSERT_EQ(aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_CACHE_OP_INFO, &value), ACL_SUCCESS);
  value.failureMode = 1;
  ASSERT_EQ(aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_FAILURE_MODE, &value), ACL_SUCCESS);

  aclrtStreamAttrValue got{};
  ASSERT_EQ(aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, &got), ACL_SUCCESS);
  EXPECT_EQ(got.streamPriority, 2u);
  uint32_t priority = 0;
  ASSERT_EQ(aclrtStreamGetPriority(stream, &priority), ACL_SUCCESS);
  EXPECT_EQ(priority, 2u);
  ASSERT_EQ(aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &got), ACL_SUCCESS);
  EXPECT_EQ(got.userCustomTag, 0xabcdu);
  ASSERT_EQ(aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_CACHE_OP_INFO, &got), ACL_SUCCESS);
  EXPECT_EQ(got.cacheOpInfoSwitch, 1u);
  got = {};
  ASSERT_EQ(aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_FAILURE_MODE, &got), ACL_SUCCESS);
  EXPECT_EQ(got.failureMode, 1u);

  value.cacheOpInfoSwitch = 2;
  EXPECT_EQ(aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_CACHE_OP_INFO, &value),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSetStreamAttribute(nullptr, ACL_STREAM_ATTR_PRIORITY, &value),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSetStreamAttribute(stream, static_cast<aclrtStreamAttr>(0), &value),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &value),
            ACL_ERROR_RT_PARAM_INVALID)
      << "a switch is 0 or 1";
  EXPECT_EQ(aclrtGetStreamAttribute(stream, ACL_STREAM_ATTR_PRIORITY, nullptr),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(StreamQueryTest, CountsLeftShrinkAsStreamsAndEventsAreMade) {
  uint32_t streams_before = 0, streams_after = 0, events_before = 0, events_after = 0;
  ASSERT_EQ(aclrtGetStreamAvailableNum(&streams_before), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetEventAvailNum(&events_before), ACL_SUCCESS);
  EXPECT_GT(streams_before, 0u);
  EXPECT_GT(events_before, 0u);
  aclrtStream stream = nullptr;
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetStreamAvailableNum(&streams_after), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetEventAvailNum(&events_after), ACL_SUCCESS);
  EXPECT_EQ(streams_after + 1, streams_before);
  EXPECT_EQ(events_after + 1, events_before);

  uint32_t id = 0;
  EXPECT_EQ(aclrtGetEventId(event, &id), ACL_ERROR_RT_INTERNAL_ERROR) << "not recorded yet";
  ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetEventId(event, &id), ACL_SUCCESS);
  EXPECT_GT(id, 0u);
  uint32_t again = 0;
  ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetEventId(event, &again), ACL_SUCCESS);
  EXPECT_EQ(again, id) << "the id stays with the event";
  EXPECT_EQ(aclrtGetEventId(nullptr, &id), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetEventId(event, &id), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST(MemoryUsageTest, ThisProcessAndTheDeviceNowAndAtTheirPeak) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtMemUsageInfo info[4];
  size_t count = 0;
  ASSERT_EQ(aclrtGetMemUsageInfo(0, info, 4, &count), ACL_SUCCESS);
  ASSERT_EQ(count, 2u);
  auto find = [&](const char* name) -> const aclrtMemUsageInfo* {
    for (size_t i = 0; i < count; ++i) {
      if (std::string(info[i].name) == name) return &info[i];
    }
    return nullptr;
  };
  ASSERT_NE(find("app"), nullptr);
  ASSERT_NE(find("device"), nullptr);
  const uint64_t app_before = find("app")->curMemSize;

  constexpr size_t kBytes = 24 << 20;
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_EQ(aclrtMalloc(&a, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&b, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(b), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetMemUsageInfo(0, info, 4, &count), ACL_SUCCESS);
  const aclrtMemUsageInfo* app = find("app");
  const aclrtMemUsageInfo* device = find("device");
  ASSERT_NE(app, nullptr);
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(app->curMemSize, app_before + kBytes);
  EXPECT_GE(app->memPeakSize, app_before + 2 * kBytes) << "both were held at once";
  EXPECT_GE(device->curMemSize, app->curMemSize) << "the device counts every process";
  EXPECT_GE(device->memPeakSize, app->memPeakSize);
  EXPECT_GE(info[0].curMemSize, info[1].curMemSize) << "largest first";

  // Fewer slots than components: as many as fit.
  ASSERT_EQ(aclrtGetMemUsageInfo(0, info, 1, &count), ACL_SUCCESS);
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(aclrtGetMemUsageInfo(0, info, 0, &count), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetMemUsageInfo(0, nullptr, 4, &count), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetMemUsageInfo(0, info, 4, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetMemUsageInfo(99, info, 4, &count), ACL_ERROR_RT_INVALID_DEVICEID);
  ASSERT_EQ(aclrtFree(a), ACL_SUCCESS);
}

TEST(DeviceUtilizationTest, KernelsThatRanShowAsVectorCoreLoad) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtBinHandle binary = nullptr;
  ASSERT_EQ(aclrtBinaryLoadFromFile(E2E_KERNELS_PATH, nullptr, &binary), ACL_SUCCESS);
  aclrtFuncHandle spin = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunction(binary, "spin", &spin), ACL_SUCCESS);
  void* flag = nullptr;
  ASSERT_EQ(aclrtMalloc(&flag, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  // 16 blocks spinning 400 ms: about 6.4 core-seconds of the device's.
  struct {
    void* flag;
    uint32_t ms;
  } args{flag, 400};
  ASSERT_EQ(
      aclrtLaunchKernelWithHostArgs(spin, 16, stream, nullptr, &args, sizeof(args), nullptr, 0),
      ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  aclrtUtilizationInfo info{};
  ASSERT_EQ(aclrtGetDeviceUtilizationRate(0, &info), ACL_SUCCESS);
  EXPECT_GT(info.vectorUtilization, 0);
  EXPECT_LE(info.vectorUtilization, 100);
  EXPECT_EQ(info.cubeUtilization, 0) << "a vector kernel";
  EXPECT_EQ(info.aicpuUtilization, -1) << "npud has no AI CPU";
  EXPECT_EQ(info.memoryUtilization, -1);
  // A second later the device is idle again.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  ASSERT_EQ(aclrtGetDeviceUtilizationRate(0, &info), ACL_SUCCESS);
  EXPECT_EQ(info.vectorUtilization, 0);

  EXPECT_EQ(aclrtGetDeviceUtilizationRate(0, nullptr), ACL_ERROR_INVALID_PARAM);
  info.utilizationExtend = reinterpret_cast<aclrtUtilizationExtendInfo*>(&info);
  EXPECT_EQ(aclrtGetDeviceUtilizationRate(0, &info), ACL_ERROR_INVALID_PARAM);
  info.utilizationExtend = nullptr;
  EXPECT_EQ(aclrtGetDeviceUtilizationRate(99, &info), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(flag), ACL_SUCCESS);
  EXPECT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
}

}  // namespace
