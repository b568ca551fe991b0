// liberror_manager.so: CANN's error-message reporting (base/err_msg.h,
// base/err_mgr.h, namespace error_message), which operator and tiling code
// calls to explain a failure. A report is logged on stderr at error level and
// kept until GetErrMgrErrorMessage collects it. Predefined codes have no
// message table here (CANN reads one from its install tree), so their
// reports name the code and its arguments; format registrations are accepted
// for the same reason and change nothing. CANN's older ErrorManager class,
// whose methods take std::string and std::map, is not provided.

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "client/toolkit/toolkit_log.h"

#define NPUD_ERR_API __attribute__((visibility("default")))

namespace error_message {

enum class ErrorMessageMode : uint32_t {
  INTERNAL_MODE = 0U,
  PROCESS_MODE = 1U,
  ERR_MSG_MODE_MAX = 10U
};

struct ErrorManagerContext {
  uint64_t work_stream_id = 0;
  uint64_t reserved[7] = {0};
};

using unique_const_char_array = std::unique_ptr<const char[]>;

namespace {

struct Reports {
  std::mutex mu;
  std::vector<std::string> errors;
  ErrorManagerContext context;
};

Reports& TheReports() {
  static auto* reports = new Reports();
  return *reports;
}

int32_t Keep(std::string message) {
  try {
    npud::toolkit::Log(npud::toolkit::LogLevel::kError, "%s", message.c_str());
    Reports& reports = TheReports();
    std::lock_guard<std::mutex> lock(reports.mu);
    reports.errors.push_back(std::move(message));
    return 0;
  } catch (...) {
    return -1;
  }
}

std::string Format(const char* format, va_list args) {
  if (format == nullptr) return std::string();
  va_list measure;
  va_copy(measure, args);
  const int size = std::vsnprintf(nullptr, 0, format, measure);
  va_end(measure);
  if (size <= 0) return std::string();
  std::string text(static_cast<size_t>(size) + 1, '\0');
  std::vsnprintf(text.data(), text.size(), format, args);
  text.resize(static_cast<size_t>(size));
  return text;
}

unique_const_char_array Copy(const std::string& text) {
  auto copy = std::make_unique<char[]>(text.size() + 1);
  std::memcpy(copy.get(), text.c_str(), text.size() + 1);
  return unique_const_char_array(copy.release());
}

}  // namespace

NPUD_ERR_API int32_t ErrMgrInit(ErrorMessageMode /*error_mode*/) { return 0; }

NPUD_ERR_API ErrorManagerContext GetErrMgrContext() {
  Reports& reports = TheReports();
  std::lock_guard<std::mutex> lock(reports.mu);
  return reports.context;
}

NPUD_ERR_API void SetErrMgrContext(ErrorManagerContext error_context) {
  Reports& reports = TheReports();
  std::lock_guard<std::mutex> lock(reports.mu);
  reports.context = error_context;
}

NPUD_ERR_API int32_t RegisterFormatErrorMessage(const char* error_msg, size_t /*error_msg_len*/) {
  return error_msg == nullptr ? -1 : 0;
}

NPUD_ERR_API int32_t ReportInnerErrMsg(const char* file_name, const char* func, uint32_t line,
                                       const char* error_code, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const std::string text = Format(format, args);
  va_end(args);
  char where[512];
  std::snprintf(where, sizeof(where), "%s [%s:%u %s] ", error_code ? error_code : "",
                file_name ? file_name : "", line, func ? func : "");
  return Keep(where + text);
}

NPUD_ERR_API int32_t ReportUserDefinedErrMsg(const char* error_code, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const std::string text = Format(format, args);
  va_end(args);
  return Keep(std::string(error_code ? error_code : "") + ": " + text);
}

NPUD_ERR_API int32_t ReportPredefinedErrMsg(const char* error_code,
                                            const std::vector<const char*>& key,
                                            const std::vector<const char*>& value) {
  if (key.size() != value.size()) return -1;
  std::string text = error_code ? error_code : "";
  for (size_t i = 0; i < key.size(); ++i) {
    text += i == 0 ? ": " : ", ";
    text += std::string(key[i] ? key[i] : "") + "=" + (value[i] ? value[i] : "");
  }
  return Keep(std::move(text));
}

NPUD_ERR_API int32_t ReportPredefinedErrMsg(const char* error_code) {
  return Keep(error_code ? error_code : "");
}

// The reports since the last call, one a line; nullptr when there are none.
NPUD_ERR_API unique_const_char_array GetErrMgrErrorMessage() {
  Reports& reports = TheReports();
  std::string joined;
  {
    std::lock_guard<std::mutex> lock(reports.mu);
    for (const std::string& error : reports.errors) joined += error + "\n";
    reports.errors.clear();
  }
  if (joined.empty()) return nullptr;
  return Copy(joined);
}

// Nothing reports warnings through this library.
NPUD_ERR_API unique_const_char_array GetErrMgrWarningMessage() { return nullptr; }

}  // namespace error_message
