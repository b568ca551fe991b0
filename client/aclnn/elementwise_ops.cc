// aclnnAdd and aclnnMul (libopapi.so): the two-phase aclnn convention over
// one elementwise kernel. GetWorkspaceSize checks the tensors, works out
// the broadcast and returns an executor (no workspace is needed); the
// execute call launches the kernel on the stream through the public ACL
// API, like any application's kernel, and releases the executor.
//
// The kernel object (npud_aclnn_kernels.so) lies next to this library; it
// is loaded once per device on first use.

#include <dlfcn.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "client/abi/dump_hook.h"
#include "client/aclnn/elementwise_desc.h"
#include "client/aclnn/tensors.h"

// A tensor of the operator as a dump describes it: the bytes its view spans.
struct DumpedTensor {
  std::vector<int64_t> shape;
  aclDataType dtype = ACL_FLOAT;
  const void* address = nullptr;
  uint64_t bytes = 0;
  bool output = false;
};

struct aclOpExecutor {
  npud::aclnn::ElementwiseDesc desc;
  void* self = nullptr;
  void* other = nullptr;
  void* out = nullptr;
  const char* op = "";
  const char* op_type = "";
  std::vector<DumpedTensor> tensors;  // self, other, out
  std::string attrs;                  // a JSON object
};

namespace npud::aclnn {
namespace {

constexpr char kKernel[] = "npud_aclnn_elementwise";

// The launch's host arguments: three tensor addresses, then the address of
// the descriptor, which a placeholder points at the bytes after it.
struct LaunchArgs {
  void* self;
  void* other;
  void* out;
  void* desc;
  ElementwiseDesc bytes;
};

std::string KernelObjectPath() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&KernelObjectPath), &info) == 0 || info.dli_fname == nullptr) {
    return "npud_aclnn_kernels.so";
  }
  std::string path = info.dli_fname;
  const size_t slash = path.rfind('/');
  return (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) +
         "npud_aclnn_kernels.so";
}

// The kernel's function handle on the current device, loading the object
// there first if needed.
aclError KernelFunction(aclrtFuncHandle* function) {
  static std::mutex mu;
  static aclrtFuncHandle loaded[64] = {};
  int32_t device = 0;
  if (aclError error = aclrtGetDevice(&device); error != ACL_SUCCESS) return error;
  if (device < 0 || device >= 64) return ACL_ERROR_RT_INVALID_DEVICEID;
  std::lock_guard<std::mutex> lock(mu);
  if (loaded[device] == nullptr) {
    aclrtBinHandle binary = nullptr;
    const std::string path = KernelObjectPath();
    if (aclError error = aclrtBinaryLoadFromFile(path.c_str(), nullptr, &binary);
        error != ACL_SUCCESS) {
      Refuse(ACLNN_ERR_INNER, "aclnn", "cannot load the operator kernels " + path);
      return error;
    }
    if (aclError error = aclrtBinaryGetFunction(binary, kKernel, &loaded[device]);
        error != ACL_SUCCESS) {
      return error;
    }
  }
  *function = loaded[device];
  return ACL_SUCCESS;
}

// Lays `tensor` over the output's `ndim` dimensions: right-aligned, with
// stride 0 where it has extent 1 and the output more.
bool Layout(const aclTensor& tensor, const aclTensor& out, TensorLayout* layout) {
  const size_t ndim = out.shape.size();
  if (tensor.shape.size() > ndim) return false;
  const size_t skip = ndim - tensor.shape.size();
  layout->dtype = tensor.dtype;
  layout->offset = tensor.offset;
  for (size_t d = 0; d < ndim; ++d) {
    if (d < skip) {
      layout->strides[d] = 0;
      continue;
    }
    const int64_t extent = tensor.shape[d - skip];
    if (extent == out.shape[d]) {
      layout->strides[d] = tensor.strides[d - skip];
    } else if (extent == 1) {
      layout->strides[d] = 0;
    } else {
      return false;
    }
  }
  return true;
}

// The broadcast of two shapes (right-aligned; extent 1 stretches), or an
// empty shape with a -1 when they do not broadcast.
std::vector<int64_t> BroadcastShape(const aclTensor& a, const aclTensor& b) {
  const size_t ndim = std::max(a.shape.size(), b.shape.size());
  std::vector<int64_t> shape(ndim);
  for (size_t i = 0; i < ndim; ++i) {
    const int64_t x = i + a.shape.size() >= ndim ? a.shape[i + a.shape.size() - ndim] : 1;
    const int64_t y = i + b.shape.size() >= ndim ? b.shape[i + b.shape.size() - ndim] : 1;
    if (x != y && x != 1 && y != 1) return {-1};
    shape[i] = x == 1 ? y : x;
  }
  return shape;
}

// What a dump reads of `t`: from its first element over every element its
// strides reach.
DumpedTensor Dumped(const aclTensor& t, bool output) {
  DumpedTensor d;
  d.shape = t.shape;
  d.dtype = t.dtype;
  d.output = output;
  const size_t element = aclDataTypeSize(t.dtype);
  d.address = static_cast<const char*>(t.data) + t.offset * static_cast<int64_t>(element);
  int64_t last = 0;
  for (size_t i = 0; i < t.shape.size(); ++i) {
    if (t.shape[i] == 0) return d;  // no elements, no bytes
    last += (t.shape[i] - 1) * (i < t.strides.size() ? t.strides[i] : 1);
  }
  d.bytes = static_cast<uint64_t>(last + 1) * element;
  return d;
}

// Hands the operator's tensors to the runtime's dumps (which do nothing
// unless a dump is configured). A failed dump does not fail the operator.
void Dump(const aclOpExecutor& plan, aclrtStream stream) {
  std::vector<NpudDumpTensor> tensors;
  for (const DumpedTensor& t : plan.tensors) {
    tensors.push_back({t.output ? 1 : 0, t.dtype, ACL_FORMAT_ND,
                       static_cast<uint32_t>(t.shape.size()), t.shape.data(), t.address, t.bytes});
  }
  const int32_t dumped =
      NpudDumpOperator(plan.op_type, plan.op, tensors.data(), static_cast<uint32_t>(tensors.size()),
                       plan.attrs.empty() ? "{}" : plan.attrs.c_str(), stream);
  if (dumped != ACL_SUCCESS) Refuse(dumped, plan.op, "its dump failed (the operator ran)");
}

aclnnStatus Prepare(const char* op, ElementwiseOp kind, const aclTensor* self,
                    const aclTensor* other, const aclScalar* alpha, aclTensor* out,
                    uint64_t* workspace_size, aclOpExecutor** executor) {
  if (self == nullptr || other == nullptr || out == nullptr || workspace_size == nullptr ||
      executor == nullptr || (kind == kAdd && alpha == nullptr)) {
    return Refuse(ACLNN_ERR_PARAM_NULLPTR, op, "a tensor, the scalar or an output pointer is null");
  }
  for (const aclTensor* t : {self, other, static_cast<const aclTensor*>(out)}) {
    if (!SupportedType(t->dtype)) {
      return Refuse(ACLNN_ERR_PARAM_INVALID, op,
                    "data type " + std::to_string(t->dtype) + " is not supported");
    }
  }
  auto plan = std::unique_ptr<aclOpExecutor>(new (std::nothrow) aclOpExecutor());
  if (plan == nullptr) return Refuse(ACLNN_ERR_INNER, op, "out of memory");
  ElementwiseDesc& d = plan->desc;
  d.op = kind;
  d.ndim = static_cast<int32_t>(out->shape.size());
  if (d.ndim > kMaxDims) return Refuse(ACLNN_ERR_PARAM_INVALID, op, "more than 8 dimensions");
  d.total = 1;
  for (int i = 0; i < d.ndim; ++i) {
    if (out->shape[i] < 0) return Refuse(ACLNN_ERR_PARAM_INVALID, op, "a negative dimension");
    d.shape[i] = out->shape[i];
    d.total *= static_cast<uint64_t>(out->shape[i]);
  }
  if (BroadcastShape(*self, *other) != out->shape || !Layout(*self, *out, &d.self) ||
      !Layout(*other, *out, &d.other) || !Layout(*out, *out, &d.out)) {
    return Refuse(ACLNN_ERR_PARAM_INVALID, op,
                  "the shape of out is not the broadcast of the shapes of self and other");
  }
  d.integers = IntegerType(self->dtype) && IntegerType(other->dtype) && IntegerType(out->dtype);
  if (alpha != nullptr) {
    d.alpha = alpha->value;
    d.integer_alpha = alpha->integer;
  }
  if (d.total > 0 && (self->data == nullptr || other->data == nullptr || out->data == nullptr)) {
    return Refuse(ACLNN_ERR_PARAM_NULLPTR, op, "a tensor has no device memory");
  }
  plan->self = self->data;
  plan->other = other->data;
  plan->out = out->data;
  plan->op = op;
  plan->op_type = kind == kAdd ? "Add" : "Mul";
  for (const aclTensor* t : {self, other, static_cast<const aclTensor*>(out)}) {
    plan->tensors.push_back(Dumped(*t, t == out));
  }
  if (alpha != nullptr) plan->attrs = "{\"alpha\":" + std::to_string(alpha->value) + "}";
  *workspace_size = 0;
  *executor = plan.release();
  return ACLNN_SUCCESS;
}

aclnnStatus Run(const char* op, aclOpExecutor* executor, aclrtStream stream) {
  if (executor == nullptr) return Refuse(ACLNN_ERR_PARAM_NULLPTR, op, "the executor is null");
  std::unique_ptr<aclOpExecutor> plan(executor);  // one execution per executor, as in CANN
  if (plan->desc.total == 0) return ACLNN_SUCCESS;
  aclrtFuncHandle function = nullptr;
  if (aclError error = KernelFunction(&function); error != ACL_SUCCESS) {
    return Refuse(ACLNN_ERR_RUNTIME_ERROR, op,
                  "no kernel: " + std::string(aclGetRecentErrMsg() ? aclGetRecentErrMsg() : ""));
  }
  LaunchArgs args{plan->self, plan->other, plan->out, nullptr, plan->desc};
  aclrtPlaceHolderInfo placeholder{static_cast<uint32_t>(offsetof(LaunchArgs, desc)),
                                   static_cast<uint32_t>(offsetof(LaunchArgs, bytes))};
  // A block per 64Ki elements, up to 8.
  const uint64_t blocks = std::min<uint64_t>(8, (plan->desc.total + 65535) / 65536);
  if (aclError error =
          aclrtLaunchKernelWithHostArgs(function, static_cast<uint32_t>(blocks), stream, nullptr,
                                        &args, sizeof(args), &placeholder, 1);
      error != ACL_SUCCESS) {
    return Refuse(ACLNN_ERR_RUNTIME_ERROR, op, "the launch failed with " + std::to_string(error));
  }
  Dump(*plan, stream);
  return ACLNN_SUCCESS;
}

}  // namespace
}  // namespace npud::aclnn

extern "C" {

ACL_FUNC_VISIBILITY aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self,
                                                         const aclTensor* other,
                                                         const aclScalar* alpha, aclTensor* out,
                                                         uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  return npud::aclnn::Prepare("aclnnAdd", npud::aclnn::kAdd, self, other, alpha, out, workspaceSize,
                              executor);
}

ACL_FUNC_VISIBILITY aclnnStatus aclnnAdd(void* /*workspace*/, uint64_t /*workspaceSize*/,
                                         aclOpExecutor* executor, aclrtStream stream) {
  return npud::aclnn::Run("aclnnAdd", executor, stream);
}

ACL_FUNC_VISIBILITY aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor* self,
                                                         const aclTensor* other, aclTensor* out,
                                                         uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  return npud::aclnn::Prepare("aclnnMul", npud::aclnn::kMul, self, other, nullptr, out,
                              workspaceSize, executor);
}

ACL_FUNC_VISIBILITY aclnnStatus aclnnMul(void* /*workspace*/, uint64_t /*workspaceSize*/,
                                         aclOpExecutor* executor, aclrtStream stream) {
  return npud::aclnn::Run("aclnnMul", executor, stream);
}

}  // extern "C"
