// Labels and stream switches inside models (aclrt*Label*, aclrtActiveStream,
// aclrtSwitchStream; see client/core/model_control.h).

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/model_control.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

using npud::client::Result;
using npud::client::ResultInto;

namespace npud::abi_impl {

aclError aclrtCreateLabel(aclrtLabel* label) {
  NPUD_REQUIRE_NOT_NULL(label);
  return ResultInto(client::CreateLabel(), label, __func__);
}

aclError aclrtDestroyLabel(aclrtLabel label) {
  NPUD_REQUIRE_NOT_NULL(label);
  return Result(client::DestroyLabel(label), __func__);
}

aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(label);
  NPUD_REQUIRE_NOT_NULL(stream);
  return Result(client::SetLabel(label, stream), __func__);
}

aclError aclrtCreateLabelList(aclrtLabel* labels, size_t num, aclrtLabelList* labelList) {
  NPUD_REQUIRE_NOT_NULL(labels);
  NPUD_REQUIRE_NOT_NULL(labelList);
  return ResultInto(client::CreateLabelList(labels, num), labelList, __func__);
}

aclError aclrtDestroyLabelList(aclrtLabelList labelList) {
  NPUD_REQUIRE_NOT_NULL(labelList);
  return Result(client::DestroyLabelList(labelList), __func__);
}

aclError aclrtSwitchLabelByIndex(void* ptr, uint32_t maxValue, aclrtLabelList labelList,
                                 aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(ptr);
  NPUD_REQUIRE_NOT_NULL(labelList);
  NPUD_REQUIRE_NOT_NULL(stream);
  return Result(client::SwitchLabelByIndex(ptr, maxValue, labelList, stream), __func__);
}

aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(activeStream);
  NPUD_REQUIRE_NOT_NULL(stream);
  return Result(client::ActivateStream(activeStream, stream), __func__);
}

aclError aclrtSwitchStream(void* leftValue, aclrtCondition cond, void* rightValue,
                           aclrtCompareDataType dataType, aclrtStream trueStream,
                           aclrtStream falseStream, aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(leftValue);
  NPUD_REQUIRE_NOT_NULL(rightValue);
  NPUD_REQUIRE_NOT_NULL(trueStream);
  NPUD_REQUIRE_NOT_NULL(stream);
  return Result(
      client::SwitchStream(leftValue, static_cast<uint32_t>(cond), rightValue,
                           static_cast<uint32_t>(dataType), trueStream, falseStream, stream),
      __func__);
}

aclError aclrtPersistentTaskClean(aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(stream);
  return Result(client::CleanStream(stream), __func__);
}

}  // namespace npud::abi_impl
