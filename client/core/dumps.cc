#include "client/core/dumps.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "client/core/client_log.h"
#include "client/core/context_ops.h"
#include "client/core/memory_ops.h"
#include "client/core/output_files.h"
#include "client/core/runtime.h"
#include "client/core/stream_ops.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "npud/dump/dump_data.pb.h"

namespace npud::client {
namespace {

// acldumpType.
constexpr int32_t kAicErrBrief = 1, kAicErrDetail = 3, kDataDump = 4, kOverflowDump = 5;
constexpr uint32_t kArgsDumpBit = 1;  // ACL_OP_DUMP_OP_AICORE_ARGS
// A sink receives a file in pieces of at most this.
constexpr size_t kChunkBytes = 128u << 20;

uint64_t DumpEpochMicros() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count());
}

// CANN's dump data types, which are not aclDataType's numbers.
dump::OutputDataType DumpType(int32_t acl_type) {
  switch (acl_type) {
    case 0:
      return dump::DT_FLOAT;
    case 1:
      return dump::DT_FLOAT16;
    case 2:
      return dump::DT_INT8;
    case 3:
      return dump::DT_INT32;
    case 4:
      return dump::DT_UINT8;
    case 6:
      return dump::DT_INT16;
    case 7:
      return dump::DT_UINT16;
    case 8:
      return dump::DT_UINT32;
    case 9:
      return dump::DT_INT64;
    case 10:
      return dump::DT_UINT64;
    case 11:
      return dump::DT_DOUBLE;
    case 12:
      return dump::DT_BOOL;
    case 13:
      return dump::DT_STRING;
    case 16:
      return dump::DT_COMPLEX64;
    case 17:
      return dump::DT_COMPLEX128;
    case 27:
      return dump::DT_BF16;
    default:
      return dump::DT_UNDEFINED;
  }
}

// An operator's names in a file name: no separators.
std::string FileSafe(std::string name) {
  std::replace_if(
      name.begin(), name.end(),
      [](char c) { return c == ' ' || c == '.' || c == '/' || c == '\\'; }, '_');
  return name;
}

void SetShape(const std::vector<int64_t>& shape, dump::Shape* out) {
  for (int64_t dim : shape) out->add_dim(static_cast<uint64_t>(dim));
}

// The file: uint64 header length, the header, then the tensors' bytes in
// the header's order (inputs, then outputs).
std::string DumpFile(dump::DumpData header, const std::vector<std::string>& inputs,
                     const std::vector<std::string>& outputs) {
  const std::string encoded = header.SerializeAsString();
  const uint64_t length = encoded.size();
  std::string file(reinterpret_cast<const char*>(&length), sizeof(length));
  file += encoded;
  for (const std::string& bytes : inputs) file += bytes;
  for (const std::string& bytes : outputs) file += bytes;
  return file;
}

// The tensors' bytes, read back from device memory.
absl::StatusOr<std::vector<std::string>> ReadTensors(
    const std::vector<const DumpTensor*>& tensors) {
  std::vector<std::string> bytes;
  for (const DumpTensor* tensor : tensors) {
    std::string data(tensor->bytes, '\0');
    if (tensor->bytes > 0) {
      NPUD_RETURN_IF_ERROR(Memcpy(data.data(), data.size(), tensor->address, tensor->bytes,
                                  static_cast<uint32_t>(CopyKind::kDeviceToHost),
                                  /*async=*/false, nullptr));
    }
    bytes.push_back(std::move(data));
  }
  return bytes;
}

absl::StatusOr<std::string> ReadConfig(const char* path) {
  std::ifstream in(path);
  if (!in) return AclError(kAclInvalidFile, absl::StrCat("cannot read dump configuration ", path));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

Dumps& Dumps::Get() {
  static Dumps* dumps = new Dumps;
  return *dumps;
}

void Dumps::Apply(const DumpConfig& config) {
  if (config.kind == DumpConfig::Kind::kException) {
    exception_ = config;
    return;
  }
  data_on_ = true;
  data_ = config;
  std::string base = config.dump_path;
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  data_path_ = absl::StrCat(base, "/", LocalTimestamp(), "/");
}

absl::Status Dumps::ApplyInitConfig(const std::string& json) {
  if (json.find_first_not_of(" \t\r\n") == std::string::npos) return absl::OkStatus();
  NPUD_ASSIGN_OR_RETURN(std::optional<DumpConfig> config, ParseDumpConfig(json, "of aclInit"));
  if (!config.has_value()) return absl::OkStatus();
  absl::MutexLock lock(&mu_);
  Apply(*config);
  return absl::OkStatus();
}

absl::Status Dumps::InitModelDump() {
  if (!Runtime::Get().initialized()) {
    return AclError(kAclUninitialize, "aclInit must be executed before aclmdlInitDump is called");
  }
  absl::MutexLock lock(&mu_);
  if (model_dump_) return AclError(kAclRepeatInitialize, "aclmdlInitDump was already called");
  model_dump_ = true;
  return absl::OkStatus();
}

absl::Status Dumps::SetModelDump(const char* config_path) {
  if (!Runtime::Get().initialized()) {
    return AclError(kAclUninitialize, "aclInit must be executed before aclmdlSetDump is called");
  }
  {
    absl::MutexLock lock(&mu_);
    if (!model_dump_) return AclError(kAclDumpNotRun, "aclmdlInitDump was not called");
  }
  if (config_path == nullptr) return AclError(kAclInvalidParam, "dumpCfgPath is null");
  NPUD_ASSIGN_OR_RETURN(const std::string json, ReadConfig(config_path));
  if (json.find_first_not_of(" \t\r\n") == std::string::npos) return absl::OkStatus();
  NPUD_ASSIGN_OR_RETURN(std::optional<DumpConfig> config,
                        ParseDumpConfig(json, std::string("file ") + config_path));
  if (!config.has_value()) return absl::OkStatus();
  absl::MutexLock lock(&mu_);
  Apply(*config);
  return absl::OkStatus();
}

absl::Status Dumps::FinalizeModelDump() {
  if (!Runtime::Get().initialized()) {
    return AclError(kAclUninitialize, "aclInit must be executed before aclmdlFinalizeDump");
  }
  absl::MutexLock lock(&mu_);
  if (!model_dump_) return AclError(kAclDumpNotRun, "aclmdlInitDump was not called");
  // Dumps stop; the path stays what acldumpGetPath answers.
  data_on_ = false;
  model_dump_ = false;
  return absl::OkStatus();
}

std::string Dumps::ExceptionRoot() const {
  for (const char* variable : {"ASCEND_DUMP_PATH", "ASCEND_WORK_PATH"}) {
    if (const char* value = std::getenv(variable); value != nullptr && *value != '\0') return value;
  }
  return exception_.has_value() ? exception_->dump_path : "./";
}

const char* Dumps::Path(int32_t type) {
  absl::MutexLock lock(&mu_);
  if (type == kDataDump || type == kOverflowDump) {
    return data_path_.has_value() ? data_path_->c_str() : nullptr;
  }
  if (type < kAicErrBrief || type > kAicErrDetail) return nullptr;
  const std::string dir = ExceptionRoot() + "/extra-info/data-dump";
  if (!MakeDirectories(dir).ok()) return nullptr;
  auto real = RealPath(dir);
  if (!real.ok()) return nullptr;
  extra_path_ = *real;
  return extra_path_.c_str();
}

void Dumps::SetSink(Sink sink) {
  absl::MutexLock lock(&mu_);
  if (sink_) {
    ClientLog().warn("acldumpRegCallback: a callback is already registered; the first stays");
    return;
  }
  sink_ = std::move(sink);
}

void Dumps::ClearSink() {
  absl::MutexLock lock(&mu_);
  sink_ = nullptr;
}

absl::Status Dumps::StartArgs(uint32_t type, const char* path) {
  if (path == nullptr) return AclError(kAclFailure, "aclopStartDumpArgs: path is null");
  if ((type & kArgsDumpBit) == 0) {
    return AclError(kAclFailure, absl::StrFormat("dump type %u is not supported", type));
  }
  if (*path == '\0') return AclError(kAclFailure, "aclopStartDumpArgs: path is empty");
  absl::MutexLock lock(&mu_);
  if (args_path_.has_value()) {
    return AclError(kAclFailure, "aclopStartDumpArgs cannot be called repeatedly");
  }
  NPUD_RETURN_IF_ERROR(MakeDirectories(path));
  struct stat info {};
  if (stat(path, &info) != 0 || !S_ISDIR(info.st_mode) || access(path, R_OK | W_OK) != 0) {
    return AclError(kAclFailure, absl::StrCat(path, " is not a readable and writable directory"));
  }
  args_path_ = path;
  args_written_.clear();
  return absl::OkStatus();
}

absl::Status Dumps::StopArgs(uint32_t type) {
  absl::MutexLock lock(&mu_);
  if ((type & kArgsDumpBit) != 0) args_path_.reset();
  return absl::OkStatus();
}

absl::StatusOr<std::string> Dumps::ExceptionInfoPath() {
  std::string root;
  {
    absl::MutexLock lock(&mu_);
    if (!exception_.has_value()) {
      return AclError(kAclFailure,
                      "exception dump must be enabled (dump_scene) before "
                      "acldumpGetExceptionInfoPath is called");
    }
    root = ExceptionRoot();
  }
  NPUD_ASSIGN_OR_RETURN(const int32_t device, CurrentDevice());
  const std::string dir = absl::StrCat(root, "/extra-info/data-dump/", device);
  NPUD_RETURN_IF_ERROR(MakeDirectories(dir));
  return RealPath(dir);
}

absl::Status Dumps::SaveExceptionInfo(const std::string& file_name, const std::string& user_tag,
                                      const std::vector<DumpTensor>& tensors) {
  NPUD_ASSIGN_OR_RETURN(const std::string dir, ExceptionInfoPath());
  std::vector<const DumpTensor*> all;
  for (const DumpTensor& tensor : tensors) all.push_back(&tensor);
  NPUD_ASSIGN_OR_RETURN(std::vector<std::string> bytes, ReadTensors(all));
  const auto now = std::chrono::system_clock::now();
  const int millis = static_cast<int>(
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000);
  const std::string name =
      absl::StrFormat("%s/%s.custom.%s%03d", dir, file_name, LocalTimestamp(), millis);
  dump::DumpData header;
  header.set_version("2.0");
  header.set_dump_time(DumpEpochMicros());
  header.set_op_name(name.substr(name.rfind('/') + 1));
  if (!user_tag.empty()) {
    dump::OpAttr* attr = header.add_attr();
    attr->set_name("user_tag");
    attr->set_value(user_tag);
  }
  std::vector<std::string> inputs, outputs;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const DumpTensor& tensor = tensors[i];
    const bool input = tensor.role == DumpTensor::Role::kInput;
    if (input) {
      dump::OpInput* in = header.add_input();
      in->set_data_type(DumpType(tensor.data_type));
      in->set_format(tensor.format);
      SetShape(tensor.shape, in->mutable_shape());
      in->set_size(tensor.bytes);
      in->set_arg_index(static_cast<uint32_t>(i));
      in->set_input_type(2);
      inputs.push_back(std::move(bytes[i]));
    } else {
      dump::OpOutput* out = header.add_output();
      out->set_data_type(DumpType(tensor.data_type));
      out->set_format(tensor.format);
      SetShape(tensor.shape, out->mutable_shape());
      out->set_size(tensor.bytes);
      out->set_arg_index(static_cast<uint32_t>(i));
      outputs.push_back(std::move(bytes[i]));
    }
    absl::StrAppendFormat(header.mutable_dfx_message(),
                          "[Dump][Exception] exception info dump tensor data, type=%s; index=%d; "
                          "shape=[%s]; address=%p; size=%d bytes\n",
                          input                                      ? "input"
                          : tensor.role == DumpTensor::Role::kOutput ? "output"
                                                                     : "workspace",
                          i, absl::StrJoin(tensor.shape, ","), tensor.address, tensor.bytes);
  }
  return WriteFile(name, DumpFile(std::move(header), inputs, outputs), 0400);
}

absl::Status Dumps::DumpOperator(const std::string& op_type, const std::string& op_name,
                                 const std::vector<DumpTensor>& tensors,
                                 const std::string& attrs_json, void* stream) {
  bool data = false, args = false;
  {
    absl::MutexLock lock(&mu_);
    data = data_on_ && data_.kind == DumpConfig::Kind::kData && data_.op_switch;
    args = args_path_.has_value();
  }
  if (args) NPUD_RETURN_IF_ERROR(WriteArgs(op_type, op_name, tensors, attrs_json));
  if (data) NPUD_RETURN_IF_ERROR(WriteDataDump(op_type, op_name, tensors, stream));
  return absl::OkStatus();
}

absl::Status Dumps::WriteDataDump(const std::string& op_type, const std::string& op_name,
                                  const std::vector<DumpTensor>& tensors, void* stream) {
  uint32_t mode = 0;
  std::string base;
  {
    absl::MutexLock lock(&mu_);
    mode = data_.mode;
    base = *data_path_;
  }
  std::vector<const DumpTensor*> inputs, outputs;
  for (const DumpTensor& tensor : tensors) {
    if (tensor.role == DumpTensor::Role::kInput && (mode & 1) != 0) inputs.push_back(&tensor);
    if (tensor.role == DumpTensor::Role::kOutput && (mode & 2) != 0) outputs.push_back(&tensor);
  }
  // The tensors hold the operator's results once its stream got there.
  NPUD_RETURN_IF_ERROR(SynchronizeStream(stream, -1));
  NPUD_ASSIGN_OR_RETURN(std::vector<std::string> input_bytes, ReadTensors(inputs));
  NPUD_ASSIGN_OR_RETURN(std::vector<std::string> output_bytes, ReadTensors(outputs));
  NPUD_ASSIGN_OR_RETURN(const int32_t device, CurrentDevice());
  NPUD_ASSIGN_OR_RETURN(const uint32_t task, LastTaskIdOfThread());
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  const uint64_t micros = DumpEpochMicros();
  dump::DumpData header;
  header.set_version("2.0");
  header.set_dump_time(micros);
  header.set_op_name(op_name);
  for (const DumpTensor* tensor : outputs) {
    dump::OpOutput* out = header.add_output();
    out->set_data_type(DumpType(tensor->data_type));
    out->set_format(tensor->format);
    SetShape(tensor->shape, out->mutable_shape());
    SetShape(tensor->shape, out->mutable_original_shape());
    out->set_size(tensor->bytes);
    out->set_address(reinterpret_cast<uint64_t>(tensor->address));
  }
  for (const DumpTensor* tensor : inputs) {
    dump::OpInput* in = header.add_input();
    in->set_data_type(DumpType(tensor->data_type));
    in->set_format(tensor->format);
    SetShape(tensor->shape, in->mutable_shape());
    SetShape(tensor->shape, in->mutable_original_shape());
    in->set_size(tensor->bytes);
    in->set_address(reinterpret_cast<uint64_t>(tensor->address));
  }
  const std::string name = absl::StrFormat("%s%d/%s.%s.%u.%d.%d", base, device, FileSafe(op_type),
                                           FileSafe(op_name), task, target.id, micros);
  const std::string file = DumpFile(std::move(header), input_bytes, output_bytes);
  Sink sink;
  {
    absl::MutexLock lock(&mu_);
    sink = sink_;
  }
  if (!sink) return WriteFile(name, file, 0600);
  for (size_t at = 0; at < file.size(); at += kChunkBytes) {
    const size_t piece = std::min(kChunkBytes, file.size() - at);
    sink(name, file.substr(at, piece), at + piece == file.size());
  }
  return absl::OkStatus();
}

absl::Status Dumps::WriteArgs(const std::string& op_type, const std::string& op_name,
                              const std::vector<DumpTensor>& tensors,
                              const std::string& attrs_json) {
  // One record per operator shape: types, formats and shapes of its tensors.
  std::string description =
      absl::StrCat("{\"op_type\":\"", op_type, "\",\"op_name\":\"", op_name, "\",\"tensors\":[");
  for (size_t i = 0; i < tensors.size(); ++i) {
    const DumpTensor& t = tensors[i];
    absl::StrAppend(&description, i == 0 ? "" : ",", "{\"role\":\"",
                    t.role == DumpTensor::Role::kInput ? "input" : "output", "\",\"dtype\":\"",
                    dump::OutputDataType_Name(DumpType(t.data_type)), "\",\"format\":", t.format,
                    ",\"shape\":[", absl::StrJoin(t.shape, ","), "]}");
  }
  absl::StrAppend(&description, "],\"attrs\":", attrs_json.empty() ? "{}" : attrs_json, "}\n");
  const std::string key =
      absl::StrFormat("%s_%016x", FileSafe(op_type), std::hash<std::string>()(description));
  std::string path;
  {
    absl::MutexLock lock(&mu_);
    if (!args_path_.has_value() || !args_written_.insert(key).second) return absl::OkStatus();
    path = absl::StrCat(*args_path_, "/", key, ".json");
  }
  unlink(path.c_str());  // a record is replaced, not appended to
  return WriteFile(path, description, 0600);
}

}  // namespace npud::client
