// Kernel calls: loading kernel binaries (in chunks), launching their
// kernels on a stream, and run-time compilation, which runs on the daemon's
// bounded compile executor so seconds of g++ never hold up the session.

#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "daemon/session/calls.h"
#include "simdevice/kernel_launch.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

// CANN's largest block dimension.
constexpr uint32_t kMaxBlockDim = 65535;

v1::Reply DescribeBinary(const LoadedBinary& binary) {
  v1::Reply reply;
  for (const sim::KernelInfo& kernel : binary.kernels) {
    v1::KernelDescription* description = reply.mutable_binary()->add_kernels();
    description->set_name(kernel.name);
    description->set_args_size(kernel.args_size);
    description->set_kernel_type(static_cast<v1::KernelType>(kernel.kernel_type));
    for (const auto& [offset, size] : kernel.params) {
      description->add_param_offsets(offset);
      description->add_param_sizes(size);
    }
    description->set_code_offset(kernel.code_offset);
    description->set_code_size(kernel.code_size);
  }
  return reply;
}

v1::ServerMessage CompileReply(uint64_t call_id, const CompileOutput& output) {
  v1::ServerMessage message;
  v1::Reply* reply = message.mutable_reply();
  reply->set_call_id(call_id);
  v1::CompileResult* result = reply->mutable_compile();
  result->set_success(output.success);
  result->set_binary(output.binary);
  result->set_log(output.log);
  for (const std::string& kernel : output.kernels) result->add_kernels(kernel);
  return message;
}

// Device memory for the device variables of `binary` (on the daemon's first
// device), holding their initial bytes; described in `reply`.
absl::Status PlaceVariables(SessionState& s, uint64_t binary_id, const LoadedBinary& binary,
                            v1::Reply& reply) {
  if (binary.variables.empty()) return absl::OkStatus();
  constexpr int kDevice = 0;
  uint64_t total = 0;
  const std::vector<uint64_t> offsets = SessionKernels::VariableOffsets(binary, &total);
  NPUD_ASSIGN_OR_RETURN(const uint64_t address, s.memory.Allocate(kDevice, total));
  absl::StatusOr<sim::DeviceRange> range = s.memory.Access(address, total);
  absl::Status placed = range.status();
  if (placed.ok()) {
    for (size_t i = 0; i < binary.variables.size(); ++i) {
      const BinaryVariable& variable = binary.variables[i];
      std::memcpy(range->data() + offsets[i], variable.initial.data(), variable.initial.size());
      v1::DeviceVariable* described = reply.mutable_binary()->add_variables();
      described->set_name(variable.name);
      described->set_address(address + offsets[i]);
      described->set_size(variable.size);
    }
    placed = s.kernels.PlaceVariables(binary_id, binary, kDevice, address);
  }
  if (!placed.ok()) s.memory.Free(address).IgnoreError();
  return placed;
}

}  // namespace

Outcome LoadBinary(SessionState& s, const v1::LoadBinary& op) {
  NPUD_ASSIGN_OR_RETURN(std::string bytes, s.AddBinaryChunk(op.binary_id(), op.data(), op.last()));
  if (!op.last()) return v1::Reply();
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<const LoadedBinary> binary,
                        s.kernels.Load(op.binary_id(), bytes, op.label()));
  v1::Reply reply = DescribeBinary(*binary);
  if (absl::Status placed = PlaceVariables(s, op.binary_id(), *binary, reply); !placed.ok()) {
    for (uint64_t address : s.kernels.Unload(op.binary_id())) s.memory.Free(address).IgnoreError();
    return placed;
  }
  spdlog::info("session {}: loaded kernel binary '{}' ({} bytes, {} kernels, {} device variables)",
               s.id, op.label(), bytes.size(), binary->kernels.size(), binary->variables.size());
  NPUD_RETURN_IF_ERROR(s.binaries.Add(op.binary_id(), std::move(binary)));
  return reply;
}

Outcome UnloadBinary(SessionState& s, const v1::UnloadBinary& op) {
  // Queued launches hold their own reference: the code stays until they ran.
  NPUD_RETURN_IF_ERROR(s.binaries.Take(op.binary_id()).status());
  // Queued work that pinned the binary's memory keeps it until it has run.
  for (uint64_t address : s.kernels.Unload(op.binary_id())) s.memory.Free(address).IgnoreError();
  return v1::Reply();
}

Outcome BinaryImage(SessionState& s, const v1::BinaryImage& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<const LoadedBinary> binary,
                        s.binaries.Find(op.binary_id()));
  v1::Reply reply;
  if (const auto image = s.kernels.Image(op.binary_id())) {
    reply.mutable_binary_image()->set_address(image->first);
    reply.mutable_binary_image()->set_size(image->second);
    return reply;
  }
  NPUD_ASSIGN_OR_RETURN(const std::string bytes, SessionKernels::ReadBytes(*binary));
  NPUD_ASSIGN_OR_RETURN(const uint64_t address, s.memory.Allocate(op.device_id(), bytes.size()));
  absl::StatusOr<sim::DeviceRange> range = s.memory.Access(address, bytes.size());
  if (!range.ok()) {
    s.memory.Free(address).IgnoreError();
    return range.status();
  }
  std::memcpy(range->data(), bytes.data(), bytes.size());
  s.kernels.SetImage(op.binary_id(), address, bytes.size());
  reply.mutable_binary_image()->set_address(address);
  reply.mutable_binary_image()->set_size(bytes.size());
  return reply;
}

Outcome LaunchKernel(SessionState& s, const v1::LaunchKernel& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Stream> stream, s.streams.Find(op.stream_id()));
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<const LoadedBinary> binary,
                        s.binaries.Find(op.binary_id()));
  if (op.kernel_index() >= binary->kernels.size()) {
    return AclError(kRtInvalidHandle, absl::StrFormat("binary %d has no kernel %d", op.binary_id(),
                                                      op.kernel_index()));
  }
  const sim::KernelInfo& kernel = binary->kernels[op.kernel_index()];
  if (op.block_dim() == 0 || op.block_dim() > kMaxBlockDim) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("block dim %d is outside 1..%d", op.block_dim(), kMaxBlockDim));
  }
  sim::LaunchSpec spec;
  const uint64_t args_size = op.args_address() != 0 ? op.args_size() : op.args().size();
  if (args_size < kernel.args_size) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("kernel '%s' takes %d bytes of arguments, got %d", kernel.name,
                                    kernel.args_size, args_size));
  }
  if (op.args_address() != 0) {
    NPUD_ASSIGN_OR_RETURN(spec.args_source, s.memory.Access(op.args_address(), op.args_size()));
  }
  for (const v1::Placeholder& placeholder : op.placeholders()) {
    if (uint64_t{placeholder.addr_offset()} + sizeof(uint64_t) > op.args().size() ||
        placeholder.data_offset() >= op.args().size()) {
      return AclError(kRtParamInvalid, "placeholder offsets outside the arguments");
    }
    spec.placeholders.emplace_back(placeholder.addr_offset(), placeholder.data_offset());
  }
  NPUD_ASSIGN_OR_RETURN(sim::Device * device, s.devices().Get(stream->device_id()));
  spec.kernel = static_cast<int>(op.kernel_index());
  spec.block_dim = op.block_dim();
  spec.args = op.args();
  spec.ub_bytes = device->config().ub_bytes;
  spec.device_id = stream->device_id();
  spec.stream_id = op.stream_id();
  spec.observer = s.launch_observer;
  NPUD_ASSIGN_OR_RETURN(
      std::unique_ptr<sim::Task> task,
      s.kernels.MakeLaunch(op.binary_id(), *binary, std::move(spec), stream->failure_mode()));
  stream->Submit(std::move(task));
  if (s.services.kernel_stats != nullptr) s.services.kernel_stats->CountLaunch(kernel.name);
  return v1::Reply();
}

Outcome SetExecuteTimeout(SessionState& s, const v1::SetExecuteTimeout& op) {
  s.kernels.SetExecuteTimeout(absl::Microseconds(op.timeout_us()));
  return v1::Reply();
}

void CompileProgram(SessionState& s, uint64_t call_id, const v1::CompileProgram& op) {
  CompileRequest request;
  request.source = op.source();
  request.name = op.name();
  for (const v1::SourceHeader& header : op.headers()) {
    request.headers.emplace_back(header.name(), header.content());
  }
  request.options.assign(op.options().begin(), op.options().end());
  request.cancelled = s.ended;
  // The job owns what it uses; a reply after the client left is dropped by
  // the sink, a job not yet started when the session ends is cancelled, and
  // a running one has its compiler killed.
  absl::Status queued = s.services.compilations->Schedule(
      s.id, [compiler = s.services.compiler, sink = s.sink(), call_id, session = s.id,
             request = std::move(request)] {
        const CompileOutput output = compiler->Compile(request);
        spdlog::info("session {}: compiled program '{}': {}{} ({} kernels, {} bytes)", session,
                     request.name, output.success ? "ok" : "failed",
                     output.from_cache ? ", from cache" : "", output.kernels.size(),
                     output.binary.size());
        sink->Send(CompileReply(call_id, output));
      });
  if (!queued.ok()) {
    spdlog::warn("session {}: compilation of '{}' refused: {}", s.id, op.name(),
                 std::string(queued.message()));
    s.Finish(call_id, 0,
             AclError(kRtResourceAllocFail,
                      absl::StrFormat("npud is busy compiling (%s); try again later",
                                      queued.message())));
  }
}

}  // namespace npud::daemon
