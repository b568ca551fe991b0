// ACL entry points of dumps (acl_dump.h; aclmdlInitDump, aclmdlSetDump,
// aclmdlFinalizeDump of acl_rt.h) and the operator library's dump hook
// (dump_hook.h). The work is client/core/dumps.h's.

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "client/abi/abi_status.h"
#include "client/abi/dump_hook.h"
#include "client/core/dumps.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

using npud::client::Dumps;
using npud::client::DumpTensor;
using npud::client::Result;

namespace {

absl::Status Invalid(const std::string& why) { return npud::AclError(npud::kAclInvalidParam, why); }

// acldumpSaveExceptionInfo's checks, in CANN's order.
absl::StatusOr<std::vector<DumpTensor>> ExceptionTensors(const char* fileName,
                                                         const acldumpTensorInfo* tensors,
                                                         size_t tensorCount) {
  if (fileName == nullptr) return Invalid("fileName is null");
  if (*fileName == '\0') return Invalid("fileName is empty");
  for (absl::string_view part : absl::StrSplit(fileName, '/')) {
    if (part == "..") return Invalid("fileName may not leave the exception directory (..)");
  }
  if (tensors == nullptr) return Invalid("tensors is null");
  if (tensorCount == 0) return Invalid("tensorCount is 0");
  std::vector<DumpTensor> out;
  for (size_t i = 0; i < tensorCount; ++i) {
    const acldumpTensorInfo& t = tensors[i];
    if (t.shapeNum > ACL_DUMP_MAX_SHAPE_NUM || t.originShapeNum > ACL_DUMP_MAX_SHAPE_NUM) {
      return Invalid(absl::StrFormat("tensor %d has more than %d dims", i, ACL_DUMP_MAX_SHAPE_NUM));
    }
    if (t.type != ACL_DUMP_TENSOR_INPUT && t.type != ACL_DUMP_TENSOR_OUTPUT &&
        t.type != ACL_DUMP_TENSOR_WORKSPACE) {
      return Invalid(absl::StrFormat("tensor %d: %d is not an acldumpTensorType", i, t.type));
    }
    if (t.addrType != ACL_DUMP_ADDR_RAW) {
      return Invalid(absl::StrFormat("tensor %d: only ACL_DUMP_ADDR_RAW addresses", i));
    }
    if (t.placement != ACL_DUMP_PLACEMENT_DEVICE) {
      return Invalid(absl::StrFormat("tensor %d: only device memory", i));
    }
    if (t.tensorAddr == nullptr) return Invalid(absl::StrFormat("tensor %d has no address", i));
    if (t.tensorSize == 0) return Invalid(absl::StrFormat("tensor %d has no bytes", i));
    DumpTensor tensor;
    tensor.role = t.type == ACL_DUMP_TENSOR_INPUT    ? DumpTensor::Role::kInput
                  : t.type == ACL_DUMP_TENSOR_OUTPUT ? DumpTensor::Role::kOutput
                                                     : DumpTensor::Role::kWorkspace;
    tensor.data_type = t.dataType;
    tensor.format = t.format;
    tensor.shape.assign(t.shape, t.shape + t.shapeNum);
    tensor.address = t.tensorAddr;
    tensor.bytes = t.tensorSize;
    out.push_back(std::move(tensor));
  }
  return out;
}

}  // namespace

namespace npud::abi_impl {

aclError aclmdlInitDump(void) { return Result(Dumps::Get().InitModelDump(), __func__); }

aclError aclmdlSetDump(const char* dumpCfgPath) {
  return Result(Dumps::Get().SetModelDump(dumpCfgPath), __func__);
}

aclError aclmdlFinalizeDump(void) { return Result(Dumps::Get().FinalizeModelDump(), __func__); }

aclError acldumpRegCallback(acldumpMessageCallback messageCallback, int32_t flag) {
  if (messageCallback == nullptr) {
    return Result(AclError(kAclFailure, "messageCallback is null"), __func__);
  }
  if (flag != 0) {
    return Result(AclError(kAclFailure, "flag is reserved and can only be 0"), __func__);
  }
  Dumps::Get().SetSink(
      [messageCallback](const std::string& file, const std::string& bytes, bool last) {
        std::vector<uint8_t> memory(sizeof(acldumpChunk) + bytes.size());
        auto* chunk = reinterpret_cast<acldumpChunk*>(memory.data());
        std::strncpy(chunk->fileName, file.c_str(), sizeof(chunk->fileName) - 1);
        chunk->bufLen = static_cast<uint32_t>(bytes.size());
        chunk->isLastChunk = last ? 1 : 0;
        chunk->offset = -1;  // appended
        chunk->flag = 0;
        std::memcpy(chunk->dataBuf, bytes.data(), bytes.size());
        // Its answer is only logged by CANN, and not needed here.
        (void)messageCallback(chunk, static_cast<int32_t>(memory.size()));
      });
  return ACL_SUCCESS;
}

void acldumpUnregCallback() { Dumps::Get().ClearSink(); }

aclError aclopStartDumpArgs(uint32_t dumpType, const char* path) {
  return Result(Dumps::Get().StartArgs(dumpType, path), __func__);
}

aclError aclopStopDumpArgs(uint32_t dumpType) {
  return Result(Dumps::Get().StopArgs(dumpType), __func__);
}

const char* acldumpGetPath(acldumpType dumpType) { return Dumps::Get().Path(dumpType); }

aclError acldumpSaveExceptionInfo(const char* fileName, const char* userTag,
                                  const acldumpTensorInfo* tensors, size_t tensorCount) {
  auto checked = ExceptionTensors(fileName, tensors, tensorCount);
  if (!checked.ok()) return Result(checked.status(), __func__);
  return Result(
      Dumps::Get().SaveExceptionInfo(fileName, userTag != nullptr ? userTag : "", *checked),
      __func__);
}

aclError acldumpGetExceptionInfoPath(char* path, size_t maxLen) {
  NPUD_REQUIRE_NOT_NULL(path);
  if (maxLen <= 1) return Result(Invalid("maxLen must be more than 1"), __func__);
  auto found = Dumps::Get().ExceptionInfoPath();
  if (!found.ok()) return Result(found.status(), __func__);
  if (found->size() + 1 > maxLen) {
    return Result(Invalid(absl::StrFormat("buffer size %d is not enough for the result size %d",
                                          maxLen, found->size() + 1)),
                  __func__);
  }
  std::memcpy(path, found->c_str(), found->size() + 1);
  return ACL_SUCCESS;
}

}  // namespace npud::abi_impl

extern "C" __attribute__((visibility("default"))) int32_t NpudDumpOperator(
    const char* op_type, const char* op_name, const NpudDumpTensor* tensors, uint32_t count,
    const char* attrs_json, void* stream) {
  try {
    std::vector<DumpTensor> described;
    for (uint32_t i = 0; i < count; ++i) {
      const NpudDumpTensor& t = tensors[i];
      DumpTensor tensor;
      tensor.role = t.is_output ? DumpTensor::Role::kOutput : DumpTensor::Role::kInput;
      tensor.data_type = t.data_type;
      tensor.format = t.format;
      tensor.shape.assign(t.shape, t.shape + t.dims);
      tensor.address = t.address;
      tensor.bytes = t.bytes;
      described.push_back(std::move(tensor));
    }
    return Result(Dumps::Get().DumpOperator(op_type, op_name, described,
                                            attrs_json != nullptr ? attrs_json : "", stream),
                  __func__);
  } catch (...) {
    return ACL_ERROR_INTERNAL_ERROR;  // never into the operator library
  }
}
