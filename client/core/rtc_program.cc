#include "client/core/rtc_program.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "client/core/daemon_calls.h"
#include "common/rtc_options.h"
#include "npud/v1/calls.pb.h"

namespace npud::client::rtc {
namespace {

constexpr char kDefaultProgramName[] = "default_program";

// Where RtcError() keeps the code (AclError() uses "npud.acl/code").
constexpr absl::string_view kRtcPayloadUrl = "npud.rtc/code";

// The canonical code that best describes an RTC code.
absl::StatusCode CanonicalFor(RtcCode code) {
  switch (code) {
    case kRtcInvalidProg:
      return absl::StatusCode::kNotFound;
    case kRtcInvalidInput:
    case kRtcInvalidOption:
    case kRtcCompilation:
    case kRtcLinking:
    case kRtcNameExprNotValid:
      return absl::StatusCode::kInvalidArgument;
    case kRtcNoNameExprAfterCompilation:
    case kRtcNoLoweredNamesBeforeCompilation:
      return absl::StatusCode::kFailedPrecondition;
    case kRtcOutOfMemory:
      return absl::StatusCode::kResourceExhausted;
    default:
      return absl::StatusCode::kInternal;
  }
}

// Program handles: ids below 2^48 tagged like the handles of handles.h.
constexpr uint64_t kProgramTag = 0xAC;
constexpr uint64_t kIdMask = (uint64_t{1} << 48) - 1;

class Registry {
 public:
  void* Add(std::shared_ptr<Program> program) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    const uint64_t id = next_id_++ & kIdMask;
    programs_[id] = std::move(program);
    return reinterpret_cast<void*>((kProgramTag << 48) | id);
  }

  std::shared_ptr<Program> Find(const void* handle) ABSL_LOCKS_EXCLUDED(mu_) {
    const uint64_t id = IdOf(handle);
    if (id == 0) return nullptr;
    absl::MutexLock lock(&mu_);
    auto it = programs_.find(id);
    return it == programs_.end() ? nullptr : it->second;
  }

  bool Remove(const void* handle) ABSL_LOCKS_EXCLUDED(mu_) {
    const uint64_t id = IdOf(handle);
    if (id == 0) return false;
    std::shared_ptr<Program> removed;  // destroyed outside the lock
    absl::MutexLock lock(&mu_);
    auto it = programs_.find(id);
    if (it == programs_.end()) return false;
    removed = std::move(it->second);
    programs_.erase(it);
    return true;
  }

 private:
  static uint64_t IdOf(const void* handle) {
    const uint64_t bits = reinterpret_cast<uint64_t>(handle);
    return (bits >> 48) == kProgramTag ? (bits & kIdMask) : 0;
  }

  absl::Mutex mu_;
  uint64_t next_id_ ABSL_GUARDED_BY(mu_) = 1;
  absl::flat_hash_map<uint64_t, std::shared_ptr<Program>> programs_ ABSL_GUARDED_BY(mu_);
};

Registry& Programs() {
  static Registry* registry = new Registry();  // never destroyed: used at exit
  return *registry;
}

// `&name`, `::name` and surrounding blanks denote the kernel `name`.
std::string KernelNameOf(absl::string_view expression) {
  expression = absl::StripAsciiWhitespace(expression);
  if (absl::ConsumePrefix(&expression, "&")) expression = absl::StripAsciiWhitespace(expression);
  absl::ConsumePrefix(&expression, "::");
  return std::string(expression);
}

// The first line of the log that reports an error, for messages.
std::string FirstError(const std::string& log) {
  size_t start = 0;
  while (start < log.size()) {
    size_t end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    const absl::string_view line(log.data() + start, end - start);
    if (line.find("error") != absl::string_view::npos) return std::string(line);
    start = end + 1;
  }
  return "see the compile log";
}

}  // namespace

absl::Status RtcError(RtcCode code, absl::string_view message) {
  absl::Status status(CanonicalFor(code), message);
  status.SetPayload(kRtcPayloadUrl, absl::Cord(absl::StrCat(static_cast<int>(code))));
  return status;
}

int RtcCodeOf(const absl::Status& status) {
  if (status.ok()) return kRtcSuccess;
  int code = 0;
  if (auto payload = status.GetPayload(kRtcPayloadUrl);
      payload && absl::SimpleAtoi(std::string(*payload), &code)) {
    return code;
  }
  return kRtcFailure;
}

Program::Program(std::string source, std::string name,
                 std::vector<std::pair<std::string, std::string>> headers)
    : source_(std::move(source)),
      name_(name.empty() ? std::string(kDefaultProgramName) : std::move(name)),
      headers_(std::move(headers)) {}

absl::Status Program::Compile(const std::vector<std::string>& options) {
  if (absl::Status checked = CheckRtcOptions(options); !checked.ok()) {
    absl::MutexLock lock(&mu_);
    log_ = absl::StrCat(checked.message(), "\n");
    return RtcError(kRtcInvalidOption, checked.message());
  }

  v1::Call call;
  v1::CompileProgram* op = call.mutable_compile_program();
  op->set_source(source_);
  op->set_name(name_);
  for (const auto& [include_name, content] : headers_) {
    v1::SourceHeader* header = op->add_headers();
    header->set_name(include_name);
    header->set_content(content);
  }
  for (const std::string& option : options) op->add_options(option);
  absl::StatusOr<v1::Reply> reply = CallDaemon(std::move(call));

  absl::MutexLock lock(&mu_);
  if (!reply.ok() || !reply->has_compile()) {
    const std::string why =
        reply.ok() ? std::string("npud sent no compile result")
                   : absl::StrCat("npud could not compile the program: ", reply.status().message());
    log_ = why + "\n";
    return RtcError(kRtcFailure, why);
  }
  v1::CompileResult* result = reply->mutable_compile();
  compiled_ = true;
  success_ = result->success();
  log_ = std::move(*result->mutable_log());
  if (success_) {
    binary_ = std::move(*result->mutable_binary());
    kernels_.assign(result->kernels().begin(), result->kernels().end());
    return absl::OkStatus();
  }
  binary_.clear();
  kernels_.clear();
  return RtcError(kRtcCompilation,
                  absl::StrCat("compiling ", name_, " failed: ", FirstError(log_)));
}

absl::Status Program::AddNameExpression(const std::string& expression) {
  absl::MutexLock lock(&mu_);
  if (compiled_) {
    return RtcError(
        kRtcNoNameExprAfterCompilation,
        absl::StrCat("name expression '", expression, "' added after the program was compiled"));
  }
  if (std::find(name_expressions_.begin(), name_expressions_.end(), expression) ==
      name_expressions_.end()) {
    name_expressions_.push_back(expression);
  }
  return absl::OkStatus();
}

absl::StatusOr<const char*> Program::LoweredName(const std::string& expression) {
  absl::MutexLock lock(&mu_);
  if (!compiled_ || !success_) {
    return RtcError(kRtcNoLoweredNamesBeforeCompilation,
                    absl::StrCat(name_, " has not been compiled successfully"));
  }
  if (std::find(name_expressions_.begin(), name_expressions_.end(), expression) ==
      name_expressions_.end()) {
    return RtcError(kRtcNameExprNotValid, absl::StrCat("name expression '", expression,
                                                       "' was not added with aclrtcAddNameExpr"));
  }
  const std::string kernel = KernelNameOf(expression);
  if (std::find(kernels_.begin(), kernels_.end(), kernel) == kernels_.end()) {
    return RtcError(kRtcNameExprNotValid,
                    absl::StrCat("name expression '", expression,
                                 "' names no extern \"C\" kernel of ", name_, " (its kernels: ",
                                 kernels_.empty() ? "none" : absl::StrJoin(kernels_, ", "), ")"));
  }
  auto it = lowered_.emplace(expression, kernel).first;
  return it->second.c_str();
}

size_t Program::BinarySize() const {
  absl::MutexLock lock(&mu_);
  return binary_.size();
}

void Program::CopyBinary(char* out) const {
  absl::MutexLock lock(&mu_);
  if (!binary_.empty()) std::memcpy(out, binary_.data(), binary_.size());
}

size_t Program::LogSize() const {
  absl::MutexLock lock(&mu_);
  return log_.size() + 1;
}

void Program::CopyLog(char* out) const {
  absl::MutexLock lock(&mu_);
  std::memcpy(out, log_.c_str(), log_.size() + 1);
}

std::vector<std::string> Program::Kernels() const {
  absl::MutexLock lock(&mu_);
  return kernels_;
}

absl::StatusOr<void*> CreateProgram(const char* source, const char* name, int header_count,
                                    const char* const* headers, const char* const* include_names) {
  if (source == nullptr) return RtcError(kRtcInvalidInput, "src must not be null");
  if (header_count < 0) {
    return RtcError(kRtcInvalidInput,
                    absl::StrCat("numHeaders must not be negative (", header_count, ")"));
  }
  if (header_count > 0 && (headers == nullptr || include_names == nullptr)) {
    return RtcError(kRtcInvalidInput, absl::StrCat("numHeaders is ", header_count,
                                                   " but headers or includeNames is null"));
  }
  std::vector<std::pair<std::string, std::string>> header_list;
  std::set<std::string> seen;
  for (int i = 0; i < header_count; ++i) {
    if (headers[i] == nullptr || include_names[i] == nullptr) {
      return RtcError(kRtcInvalidInput,
                      absl::StrCat("header ", i, ": headers[", i, "] and includeNames[", i,
                                   "] must not be null"));
    }
    const std::string include_name = include_names[i];
    if (absl::Status checked = CheckRtcHeaderName(include_name); !checked.ok()) {
      return RtcError(kRtcInvalidInput, absl::StrCat("header ", i, ": ", checked.message()));
    }
    if (!seen.insert(include_name).second) {
      return RtcError(kRtcInvalidInput,
                      absl::StrCat("header ", i, ": '", include_name, "' is given twice"));
    }
    header_list.emplace_back(include_name, headers[i]);
  }
  auto program =
      std::make_shared<Program>(source, name == nullptr ? "" : name, std::move(header_list));
  return Programs().Add(std::move(program));
}

absl::Status InvalidProgram(const void* handle) {
  return RtcError(kRtcInvalidProg, handle == nullptr
                                       ? std::string("the program is null")
                                       : absl::StrFormat("%p is not a live aclrtcProg", handle));
}

absl::StatusOr<std::shared_ptr<Program>> FindProgram(const void* handle) {
  std::shared_ptr<Program> program = Programs().Find(handle);
  if (program == nullptr) return InvalidProgram(handle);
  return program;
}

absl::Status DestroyProgram(const void* handle) {
  return Programs().Remove(handle) ? absl::OkStatus() : InvalidProgram(handle);
}

}  // namespace npud::client::rtc
