#include "client/core/kernel_ops.h"
#include "client/core/exception_callbacks.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "client/core/context_ops.h"
#include "client/core/daemon_calls.h"
#include "client/core/handles.h"
#include "client/core/runtime.h"
#include "client/core/stream_ops.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "common/wire_constants.h"
#include "npud/v1/calls.pb.h"

namespace npud::client {
namespace {

KernelArgs* FindArgsOrNull(void* key) {
  return key == nullptr ? nullptr : Runtime::Get().kernels().FindArgs(key);
}

absl::Status NoArgs(void* key) {
  return AclError(kRtInvalidHandle, absl::StrFormat("%p is not an argument list", key));
}

// Alignment of an appended parameter: its size's largest power-of-two
// factor, at most 8 — the natural alignment of the C types kernels take.
size_t AlignmentOf(size_t size) {
  size_t align = 1;
  while (align < 8 && size % (align * 2) == 0) align *= 2;
  return align;
}

size_t RoundUp(size_t value, size_t to) { return (value + to - 1) / to * to; }

absl::Status Launch(const FunctionRef& function, uint32_t blocks, void* stream, v1::Call call,
                    const LaunchAttributes& attributes) {
  if (blocks == 0) return AclError(kRtParamInvalid, "numBlocks must be at least 1");
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  v1::LaunchKernel* launch = call.mutable_launch_kernel();
  for (const LaunchAttribute& attribute : attributes) {
    v1::LaunchAttribute* kept = launch->add_attributes();
    kept->set_id(attribute.id);
    kept->set_value(attribute.value);
  }
  launch->set_stream_id(target.id);
  launch->set_binary_id(function.binary_id);
  launch->set_kernel_index(function.index);
  launch->set_block_dim(blocks);
  return PostToDaemon(std::move(call));
}

}  // namespace

absl::StatusOr<uint64_t> SetExecuteTimeout(uint64_t requested_us) {
  uint64_t intervals = (requested_us + kOpTimeoutIntervalUs - 1) / kOpTimeoutIntervalUs;
  if (requested_us == 0) intervals = kDefaultOpTimeoutUs / kOpTimeoutIntervalUs;
  intervals = std::min(intervals, kMaxOpTimeoutIntervals);
  const uint64_t timeout_us = intervals * kOpTimeoutIntervalUs;
  v1::Call call;
  call.mutable_set_execute_timeout()->set_timeout_us(timeout_us);
  NPUD_RETURN_IF_ERROR(PostToDaemon(std::move(call)));
  Runtime::Get().execute_timeout_us().store(timeout_us);
  return timeout_us;
}

uint64_t ExecuteTimeoutUs() { return Runtime::Get().execute_timeout_us().load(); }

absl::StatusOr<void*> LoadBinary(absl::string_view bytes, const std::string& label) {
  // Every daemon gets the binary: a kernel may run on any device.
  NPUD_ASSIGN_OR_RETURN(const std::vector<CallPipeline*> sessions, Runtime::Get().Sessions());
  const uint64_t id = Runtime::Get().objects().MintId();
  size_t offset = 0;
  while (bytes.size() - offset > kDataChunkBytes) {
    v1::Call call;
    v1::LoadBinary* load = call.mutable_load_binary();
    load->set_binary_id(id);
    load->set_data(bytes.data() + offset, kDataChunkBytes);
    for (CallPipeline* session : sessions) session->Post(call);
    offset += kDataChunkBytes;
  }
  v1::Call call;
  v1::LoadBinary* load = call.mutable_load_binary();
  load->set_binary_id(id);
  load->set_data(bytes.data() + offset, bytes.size() - offset);
  load->set_last(true);
  load->set_label(label);
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallEach(sessions, call));
  std::vector<KernelEntry> kernels;
  for (const v1::KernelDescription& description : reply.binary().kernels()) {
    KernelEntry kernel{description.name(),
                       description.args_size(),
                       static_cast<uint32_t>(description.kernel_type()),
                       Runtime::Get().objects().MintId(),
                       {}};
    for (int i = 0; i < description.param_offsets_size() && i < description.param_sizes_size();
         ++i) {
      kernel.params.emplace_back(description.param_offsets(i), description.param_sizes(i));
    }
    kernel.code_offset = description.code_offset();
    kernel.code_size = description.code_size();
    kernels.push_back(std::move(kernel));
  }
  std::vector<DeviceVariable> variables;
  for (const v1::DeviceVariable& variable : reply.binary().variables()) {
    variables.push_back({variable.name(), variable.address(), variable.size()});
  }
  Runtime::Get().kernels().AddBinary(id, std::move(kernels), std::move(variables));
  return MakeHandle(HandleKind::kBinary, id);
}

absl::StatusOr<void*> LoadBinaryFile(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return AclError(kRtParamInvalid, absl::StrFormat("cannot open kernel binary %s", path));
  }
  std::stringstream content;
  content << in.rdbuf();
  return LoadBinary(content.str(), path);
}

absl::StatusOr<uint64_t> ResolveBinary(void* binary) {
  const uint64_t id = HandleId(binary, HandleKind::kBinary);
  if (id == 0 || !Runtime::Get().kernels().Kernels(id)) {
    return AclError(kRtInvalidHandle, absl::StrFormat("%p is not a loaded binary", binary));
  }
  return id;
}

void* FunctionHandleOf(uint64_t binary_id, uint32_t index) {
  const auto kernels = Runtime::Get().kernels().Kernels(binary_id);
  if (!kernels || index >= kernels->size()) return nullptr;
  return MakeHandle(HandleKind::kFunction, (*kernels)[index].function_id);
}

absl::Status UnloadBinary(void* binary) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolveBinary(binary));
  Runtime::Get().kernels().RemoveBinary(id);
  SetExceptionCallback(reinterpret_cast<uintptr_t>(binary), ExceptionFn());
  v1::Call call;
  call.mutable_unload_binary()->set_binary_id(id);
  return CallDaemon(std::move(call)).status();
}

absl::StatusOr<DeviceVariable> BinaryVariable(void* binary, const char* name) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolveBinary(binary));
  std::optional<DeviceVariable> variable = Runtime::Get().kernels().Variable(id, name);
  if (!variable) {
    return AclError(kRtInvalidSymbol,
                    absl::StrFormat("the binary has no device variable named '%s'", name));
  }
  return *std::move(variable);
}

absl::StatusOr<std::pair<uint64_t, uint64_t>> BinaryImage(void* binary) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolveBinary(binary));
  NPUD_ASSIGN_OR_RETURN(const int32_t device, CurrentDevice());
  v1::Call call;
  call.mutable_binary_image()->set_binary_id(id);
  call.mutable_binary_image()->set_device_id(device);
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(call)));
  return std::make_pair(reply.binary_image().address(), reply.binary_image().size());
}

absl::StatusOr<FunctionCodeRange> FunctionCode(void* function) {
  NPUD_ASSIGN_OR_RETURN(const FunctionRef resolved, ResolveFunction(function));
  NPUD_ASSIGN_OR_RETURN(const auto image,
                        BinaryImage(MakeHandle(HandleKind::kBinary, resolved.binary_id)));
  if (resolved.kernel.code_offset > image.second) {
    return AclError(kRtInternalError, "the kernel's code lies outside its binary");
  }
  return FunctionCodeRange{image.first + resolved.kernel.code_offset, resolved.kernel.code_size,
                           resolved.kernel.kernel_type};
}

absl::StatusOr<void*> GetFunction(void* binary, const char* name) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolveBinary(binary));
  const std::vector<KernelEntry> kernels = *Runtime::Get().kernels().Kernels(id);
  for (const KernelEntry& kernel : kernels) {
    if (kernel.name == name) return MakeHandle(HandleKind::kFunction, kernel.function_id);
  }
  return AclError(kRtInvalidHandle, absl::StrFormat("the binary has no kernel named '%s'", name));
}

absl::StatusOr<uint32_t> FunctionCount(void* binary) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolveBinary(binary));
  return static_cast<uint32_t>(Runtime::Get().kernels().Kernels(id)->size());
}

absl::Status EnumerateFunctions(void* binary, void** functions, uint32_t count) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolveBinary(binary));
  const std::vector<KernelEntry> kernels = *Runtime::Get().kernels().Kernels(id);
  if (count > kernels.size()) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("the binary has %d functions, not %d", kernels.size(), count));
  }
  for (uint32_t i = 0; i < count; ++i) {
    functions[i] = MakeHandle(HandleKind::kFunction, kernels[i].function_id);
  }
  return absl::OkStatus();
}

absl::StatusOr<FunctionRef> ResolveFunction(void* function) {
  const uint64_t id = HandleId(function, HandleKind::kFunction);
  auto ref = id != 0 ? Runtime::Get().kernels().Function(id) : std::nullopt;
  if (!ref) return AclError(kRtInvalidHandle, absl::StrFormat("%p is not a function", function));
  return *ref;
}

absl::Status LaunchHostArgs(void* function, uint32_t blocks, void* stream, const void* args,
                            size_t size, const PlaceholderSpan* placeholders, size_t count,
                            const LaunchAttributes& attributes) {
  NPUD_ASSIGN_OR_RETURN(const FunctionRef ref, ResolveFunction(function));
  v1::Call call;
  v1::LaunchKernel* launch = call.mutable_launch_kernel();
  launch->set_args(args, size);
  for (size_t i = 0; i < count; ++i) {
    v1::Placeholder* placeholder = launch->add_placeholders();
    placeholder->set_addr_offset(placeholders[i].slot);
    placeholder->set_data_offset(placeholders[i].data);
  }
  return Launch(ref, blocks, stream, std::move(call), attributes);
}

absl::Status LaunchDeviceArgs(void* function, uint32_t blocks, void* stream, const void* args,
                              size_t size, const LaunchAttributes& attributes) {
  NPUD_ASSIGN_OR_RETURN(const FunctionRef ref, ResolveFunction(function));
  v1::Call call;
  call.mutable_launch_kernel()->set_args_address(reinterpret_cast<uint64_t>(args));
  call.mutable_launch_kernel()->set_args_size(size);
  return Launch(ref, blocks, stream, std::move(call), attributes);
}

absl::Status LaunchArgsArray(void* function, uint32_t blocks, void* stream, void** params,
                             const LaunchAttributes& attributes) {
  NPUD_ASSIGN_OR_RETURN(const FunctionRef ref, ResolveFunction(function));
  const KernelEntry& kernel = ref.kernel;
  if (kernel.params.empty() && kernel.args_size != 0) {
    return AclError(kRtFeatureNotSupport,
                    "this kernel binary does not describe its parameters; rebuild it with npud's "
                    "AscendC toolchain");
  }
  std::string blob(kernel.args_size, '\0');
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    if (params[i] == nullptr) {
      return AclError(kAclInvalidParam, absl::StrFormat("parameter %d is null", i));
    }
    std::memcpy(blob.data() + kernel.params[i].first, params[i], kernel.params[i].second);
  }
  return LaunchHostArgs(function, blocks, stream, blob.data(), blob.size(), nullptr, 0, attributes);
}

absl::StatusOr<void*> ArgsInit(void* function) {
  auto args = std::make_unique<KernelArgs>();
  void* key = args.get();
  NPUD_ASSIGN_OR_RETURN(const FunctionRef ref, ResolveFunction(function));
  args->function = ref;
  Runtime::Get().kernels().AddArgs(key, std::move(args));
  return key;
}

absl::Status ArgsInitAt(void* function, void* key) {
  NPUD_ASSIGN_OR_RETURN(const FunctionRef ref, ResolveFunction(function));
  auto args = std::make_unique<KernelArgs>();
  args->function = ref;
  Runtime::Get().kernels().AddArgs(key, std::move(args));
  return absl::OkStatus();
}

absl::StatusOr<void*> ArgsAppend(void* key, const void* param, size_t size) {
  KernelArgs* args = FindArgsOrNull(key);
  if (args == nullptr) return NoArgs(key);
  if (args->finalized) return AclError(kRtParamInvalid, "the argument list is finalized");
  const size_t offset = RoundUp(args->params.size(), AlignmentOf(size));
  args->params.resize(offset + size);
  std::memcpy(args->params.data() + offset, param, size);
  args->param_spans.emplace_back(static_cast<uint32_t>(offset), static_cast<uint32_t>(size));
  return reinterpret_cast<void*>(args->param_spans.size());
}

absl::StatusOr<void*> ArgsAppendPlaceholder(void* key) {
  KernelArgs* args = FindArgsOrNull(key);
  if (args == nullptr) return NoArgs(key);
  const uint64_t null_pointer = 0;
  NPUD_ASSIGN_OR_RETURN(void* param, ArgsAppend(key, &null_pointer, sizeof(null_pointer)));
  KernelArgs::Placeholder placeholder;
  placeholder.slot = args->param_spans.back().first;
  args->placeholders.push_back(std::move(placeholder));
  args->placeholder_params.push_back(args->param_spans.size() - 1);
  return param;
}

absl::StatusOr<void*> ArgsPlaceholderBuffer(void* key, void* param, size_t size) {
  KernelArgs* args = FindArgsOrNull(key);
  if (args == nullptr) return NoArgs(key);
  const size_t index = reinterpret_cast<size_t>(param) - 1;
  for (size_t i = 0; i < args->placeholders.size(); ++i) {
    if (args->placeholder_params[i] != index) continue;
    KernelArgs::Placeholder& placeholder = args->placeholders[i];
    placeholder.data = std::make_unique<uint8_t[]>(size);
    placeholder.data_size = size;
    return placeholder.data.get();
  }
  return AclError(kRtParamInvalid, "the parameter is not a placeholder of this argument list");
}

absl::Status ArgsUpdate(void* key, void* param, const void* value, size_t size) {
  KernelArgs* args = FindArgsOrNull(key);
  if (args == nullptr) return NoArgs(key);
  const size_t index = reinterpret_cast<size_t>(param) - 1;
  if (index >= args->param_spans.size() || args->param_spans[index].second != size) {
    return AclError(kRtParamInvalid, "no parameter of that size at that handle");
  }
  std::memcpy(args->params.data() + args->param_spans[index].first, value, size);
  return absl::OkStatus();
}

absl::Status ArgsFinalize(void* key) {
  KernelArgs* args = FindArgsOrNull(key);
  if (args == nullptr) return NoArgs(key);
  args->finalized = true;
  return absl::OkStatus();
}

absl::Status LaunchArgs(void* function, uint32_t blocks, void* stream, void* key,
                        const LaunchAttributes& attributes) {
  KernelArgs* args = FindArgsOrNull(key);
  if (args == nullptr) return NoArgs(key);
  // The parameters, then each placeholder's data, each 8-byte aligned.
  std::string blob(reinterpret_cast<const char*>(args->params.data()), args->params.size());
  std::vector<PlaceholderSpan> spans;
  for (const KernelArgs::Placeholder& placeholder : args->placeholders) {
    blob.resize(RoundUp(blob.size(), 8));
    spans.push_back(PlaceholderSpan{placeholder.slot, static_cast<uint32_t>(blob.size())});
    blob.append(reinterpret_cast<const char*>(placeholder.data.get()), placeholder.data_size);
  }
  // A null function means the one the list was made for.
  if (function == nullptr) {
    function = MakeHandle(HandleKind::kFunction, args->function.kernel.function_id);
  }
  return LaunchHostArgs(function, blocks, stream, blob.data(), blob.size(), spans.data(),
                        spans.size(), attributes);
}

}  // namespace npud::client
