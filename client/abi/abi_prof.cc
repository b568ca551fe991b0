// ACL entry points of profiling (acl_prof.h), and the two model-id calls of
// CANN's libprofapi.so that samples use (MsprofSetDeviceIdByGeModelIdx /
// MsprofUnsetDeviceIdByGeModelIdx). The work is client/core/profiler.h's,
// prof_markers.h's, prof_subscriptions.h's and prof_op_desc.h's.

#include <atomic>
#include <cstring>
#include <memory>
#include <string>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "client/abi/abi_status.h"
#include "client/abi/profapi_exports.h"
#include "client/core/client_log.h"
#include "client/core/prof_markers.h"
#include "client/core/prof_op_desc.h"
#include "client/core/prof_subscriptions.h"
#include "client/core/profiler.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

// CANN's step record (private to the library).
struct aclprofStepInfo {
  bool started = false;
  bool ended = false;
  uint64_t index = 0;
};

using npud::client::OpDescAt;
using npud::client::OpText;
using npud::client::Profiler;
using npud::client::ProfMarkers;
using npud::client::ProfOpDesc;
using npud::client::ProfSubscriptions;
using npud::client::Unrecorded;

namespace {

ProfMarkers::Stamp* AsStamp(void* stamp) { return static_cast<ProfMarkers::Stamp*>(stamp); }

// The text of record `index` into (buffer, length), NUL-terminated.
aclError CopyOpText(const void* info, size_t info_length, uint32_t index, char* buffer,
                    size_t length, OpText which, const char* function) {
  auto desc = OpDescAt(info, info_length, index);
  if (!desc.ok()) return Unrecorded(desc.status(), function);
  if (buffer == nullptr || length == 0) {
    return Unrecorded(npud::AclError(npud::kAclInvalidParam, "no buffer to copy into"), function);
  }
  auto text = npud::client::PeekOpText(desc->op_index, which);
  if (!text.ok()) return Unrecorded(text.status(), function);
  if (text->size() + 1 > length) {
    return Unrecorded(
        npud::AclError(npud::kAclInvalidParam, "the buffer is shorter than the text and its NUL"),
        function);
  }
  text = npud::client::TakeOpText(desc->op_index, which);
  std::memcpy(buffer, text->c_str(), text->size() + 1);
  buffer[length - 1] = '\0';
  return ACL_SUCCESS;
}

aclError OpTextLength(const void* info, size_t info_length, uint32_t index, size_t* length,
                      OpText which, const char* function) {
  NPUD_REQUIRE_NOT_NULL(length);
  auto desc = OpDescAt(info, info_length, index);
  if (!desc.ok()) return Unrecorded(desc.status(), function);
  auto text = npud::client::PeekOpText(desc->op_index, which);
  if (!text.ok()) return Unrecorded(text.status(), function);
  *length = text->size() + 1;
  return ACL_SUCCESS;
}

// A field of record `index`, 0 for a bad record.
template <typename Field>
uint64_t OpField(const void* info, size_t info_length, uint32_t index, Field field) {
  auto desc = OpDescAt(info, info_length, index);
  return desc.ok() ? (*desc).*field : 0;
}

}  // namespace

namespace npud::abi_impl {

aclError aclprofInit(const char* profilerResultPath, size_t length) {
  return Unrecorded(Profiler::Get().Init(profilerResultPath, length), __func__);
}

aclError aclprofFinalize() { return Unrecorded(Profiler::Get().Finalize(), __func__); }

aclError aclprofStart(const aclprofConfig* profilerConfig) {
  return Unrecorded(Profiler::Get().Start(profilerConfig), __func__);
}

aclError aclprofStop(const aclprofConfig* profilerConfig) {
  return Unrecorded(Profiler::Get().Stop(profilerConfig), __func__);
}

aclprofConfig* aclprofCreateConfig(uint32_t* deviceIdList, uint32_t deviceNums,
                                   aclprofAicoreMetrics aicoreMetrics,
                                   const aclprofAicoreEvents* aicoreEvents,
                                   uint64_t dataTypeConfig) {
  const absl::Status checked =
      Profiler::CheckConfig(deviceIdList, deviceNums, aicoreEvents != nullptr, dataTypeConfig);
  if (!checked.ok()) {
    client::ClientLog().error("aclprofCreateConfig: {}", std::string(checked.message()));
    return nullptr;
  }
  auto config = std::make_unique<aclprofConfig>();
  config->devices.assign(deviceIdList, deviceIdList + deviceNums);
  config->metrics = aicoreMetrics;
  config->data_types = dataTypeConfig;
  return config.release();
}

aclError aclprofDestroyConfig(const aclprofConfig* profilerConfig) {
  NPUD_REQUIRE_NOT_NULL(profilerConfig);
  delete profilerConfig;
  return ACL_SUCCESS;
}

aclError aclprofSetConfig(aclprofConfigType configType, const char* config, size_t configLength) {
  return Unrecorded(Profiler::Get().SetConfig(configType, config, configLength), __func__);
}

aclError aclprofModelSubscribe(uint32_t modelId,
                               const aclprofSubscribeConfig* profSubscribeConfig) {
  return Unrecorded(ProfSubscriptions::Get().Subscribe(modelId, profSubscribeConfig), __func__);
}

aclError aclprofModelUnSubscribe(uint32_t modelId) {
  return Unrecorded(ProfSubscriptions::Get().Unsubscribe(modelId), __func__);
}

aclprofSubscribeConfig* aclprofCreateSubscribeConfig(int8_t timeInfoSwitch,
                                                     aclprofAicoreMetrics aicoreMetrics, void* fd) {
  if (fd == nullptr || (timeInfoSwitch != 0 && timeInfoSwitch != 1)) {
    client::ClientLog().error("aclprofCreateSubscribeConfig: {}",
                              fd == nullptr ? "fd is null" : "timeInfoSwitch must be 0 or 1");
    return nullptr;
  }
  return new aclprofSubscribeConfig{timeInfoSwitch == 1, aicoreMetrics, static_cast<int*>(fd)};
}

aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig* profSubscribeConfig) {
  NPUD_REQUIRE_NOT_NULL(profSubscribeConfig);
  delete profSubscribeConfig;
  return ACL_SUCCESS;
}

aclError aclprofGetOpDescSize(size_t* opDescSize) {
  NPUD_REQUIRE_NOT_NULL(opDescSize);
  *opDescSize = sizeof(ProfOpDesc);
  return ACL_SUCCESS;
}

aclError aclprofGetOpNum(const void* opInfo, size_t opInfoLen, uint32_t* opNumber) {
  NPUD_REQUIRE_NOT_NULL(opNumber);
  return client::ResultInto(client::OpDescCount(opInfo, opInfoLen), opNumber, __func__);
}

aclError aclprofGetOpTypeLen(const void* opInfo, size_t opInfoLen, uint32_t index,
                             size_t* opTypeLen) {
  return OpTextLength(opInfo, opInfoLen, index, opTypeLen, OpText::kType, __func__);
}

aclError aclprofGetOpType(const void* opInfo, size_t opInfoLen, uint32_t index, char* opType,
                          size_t opTypeLen) {
  return CopyOpText(opInfo, opInfoLen, index, opType, opTypeLen, OpText::kType, __func__);
}

aclError aclprofGetOpNameLen(const void* opInfo, size_t opInfoLen, uint32_t index,
                             size_t* opNameLen) {
  return OpTextLength(opInfo, opInfoLen, index, opNameLen, OpText::kName, __func__);
}

aclError aclprofGetOpName(const void* opInfo, size_t opInfoLen, uint32_t index, char* opName,
                          size_t opNameLen) {
  return CopyOpText(opInfo, opInfoLen, index, opName, opNameLen, OpText::kName, __func__);
}

uint64_t aclprofGetOpStart(const void* opInfo, size_t opInfoLen, uint32_t index) {
  return OpField(opInfo, opInfoLen, index, &ProfOpDesc::start);
}

uint64_t aclprofGetOpEnd(const void* opInfo, size_t opInfoLen, uint32_t index) {
  return OpField(opInfo, opInfoLen, index, &ProfOpDesc::end);
}

uint64_t aclprofGetOpDuration(const void* opInfo, size_t opInfoLen, uint32_t index) {
  return OpField(opInfo, opInfoLen, index, &ProfOpDesc::duration);
}

size_t aclprofGetModelId(const void* opInfo, size_t opInfoLen, uint32_t index) {
  auto desc = OpDescAt(opInfo, opInfoLen, index);
  // CANN answers a failure with its code, as a size_t.
  return desc.ok() ? desc->model_id : static_cast<size_t>(ToAclCode(desc.status()));
}

aclprofSubscribeOpFlag aclprofGetOpFlag(const void* opInfo, size_t opInfoLen, uint32_t index) {
  if (opInfo == nullptr) return ACL_SUBSCRIBE_NONE;
  if (static_cast<uint64_t>(index + 1) * sizeof(ProfOpDesc) > static_cast<uint32_t>(opInfoLen)) {
    return ACL_SUBSCRIBE_OP;  // CANN's 0 for a bad index
  }
  ProfOpDesc desc;
  std::memcpy(&desc, static_cast<const char*>(opInfo) + index * sizeof(ProfOpDesc), sizeof(desc));
  return static_cast<aclprofSubscribeOpFlag>(desc.flag);
}

const char* aclprofGetOpAttriValue(const void* opInfo, size_t opInfoLen, uint32_t index,
                                   aclprofSubscribeOpAttri attri) {
  auto desc = OpDescAt(opInfo, opInfoLen, index);
  if (!desc.ok() || attri != ACL_SUBSCRIBE_ATTRI_THREADID ||
      desc->flag != ACL_SUBSCRIBE_OP_THREAD) {
    return nullptr;
  }
  thread_local std::string value;
  value = std::to_string(desc->thread_id);
  return value.c_str();
}

aclError aclprofGetStepTimestamp(aclprofStepInfo* stepInfo, aclprofStepTag tag,
                                 aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(stepInfo);
  bool& done = tag == ACL_STEP_START ? stepInfo->started : stepInfo->ended;
  if (tag != ACL_STEP_START && tag != ACL_STEP_END) {
    return Unrecorded(AclError(kAclInvalidParam, "tag is not an aclprofStepTag"), __func__);
  }
  if (done) {
    return Unrecorded(
        AclError(kAclInvalidParam, tag == ACL_STEP_START ? "the step has started already"
                                                         : "the step has ended already"),
        __func__);
  }
  done = true;
  (void)stream;  // the time is the host's when the call is made
  ProfMarkers::Get().Step(stepInfo->index, tag == ACL_STEP_START);
  return ACL_SUCCESS;
}

aclprofStepInfo* aclprofCreateStepInfo() {
  static std::atomic<uint64_t> next{1};
  auto* step = new aclprofStepInfo;
  step->index = next.fetch_add(1);
  return step;
}

void aclprofDestroyStepInfo(aclprofStepInfo* stepinfo) {
  if (stepinfo == nullptr) {
    client::ClientLog().warn("aclprofDestroyStepInfo: stepinfo is null");
    return;
  }
  delete stepinfo;
}

void* aclprofCreateStamp() { return ProfMarkers::Get().CreateStamp(); }

void aclprofDestroyStamp(void* stamp) { ProfMarkers::Get().DestroyStamp(AsStamp(stamp)); }

aclError aclprofPush(void* stamp) {
  return Unrecorded(ProfMarkers::Get().Push(AsStamp(stamp)), __func__);
}

aclError aclprofPop() { return Unrecorded(ProfMarkers::Get().Pop(), __func__); }

aclError aclprofRangeStart(void* stamp, uint32_t* rangeId) {
  return Unrecorded(ProfMarkers::Get().RangeStart(AsStamp(stamp), rangeId), __func__);
}

aclError aclprofRangeStop(uint32_t rangeId) {
  return Unrecorded(ProfMarkers::Get().RangeStop(rangeId), __func__);
}

aclError aclprofSetStampTraceMessage(void* stamp, const char* msg, uint32_t msgLen) {
  return Unrecorded(ProfMarkers::Get().SetMessage(AsStamp(stamp), msg, msgLen), __func__);
}

aclError aclprofMark(void* stamp) {
  return Unrecorded(ProfMarkers::Get().Mark(AsStamp(stamp)), __func__);
}

aclError aclrtProfTrace(void* userdata, int32_t length, aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(userdata);
  return npud::client::Result(ProfMarkers::Get().ProfTrace(userdata, length, stream), __func__);
}

aclError aclprofMarkEx(const char* msg, size_t msgLen, aclrtStream stream) {
  return Unrecorded(ProfMarkers::Get().MarkEx(msg, msgLen, stream), __func__);
}

uint64_t aclprofStr2Id(const char* message) { return ProfMarkers::Get().StringId(message); }

aclError aclprofRangePushEx(aclprofEventAttributes* attr) {
  NPUD_REQUIRE_NOT_NULL(attr);
  if (attr->messageType != ACL_PROF_MESSAGE_TYPE_TENSOR_INFO ||
      attr->message.tensorInfo == nullptr) {
    return Unrecorded(AclError(kAclInvalidParam, "attr carries no tensor info"), __func__);
  }
  return Unrecorded(ProfMarkers::Get().PushNamed(attr->message.tensorInfo->opNameId), __func__);
}

aclError aclprofRangePop() { return Unrecorded(ProfMarkers::Get().Pop(), __func__); }

}  // namespace npud::abi_impl

// libprofapi.so's: a model id stands for a model on a device (model loading
// registers it in CANN; programs without models register one themselves).
extern "C" __attribute__((visibility("default"))) int32_t MsprofSetDeviceIdByGeModelIdx(
    const uint32_t geModelIdx, const uint32_t deviceId) {
  ProfSubscriptions::Get().RegisterModel(geModelIdx, deviceId);
  return 0;
}

extern "C" __attribute__((visibility("default"))) int32_t MsprofUnsetDeviceIdByGeModelIdx(
    const uint32_t geModelIdx, const uint32_t deviceId) {
  (void)deviceId;
  ProfSubscriptions::Get().UnregisterModel(geModelIdx);
  return 0;
}
