#include "daemon/log_format.h"

#include <cstdio>
#include <cstring>
#include <memory>

#include "absl/strings/str_cat.h"
#include "spdlog/pattern_formatter.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

// %* in a pattern: the message, escaped for a JSON string.
class JsonEscapedMessage final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    for (const char c : msg.payload) {
      char control[8];
      const char* escaped = control;
      switch (c) {
        case '"':
          escaped = "\\\"";
          break;
        case '\\':
          escaped = "\\\\";
          break;
        case '\n':
          escaped = "\\n";
          break;
        case '\r':
          escaped = "\\r";
          break;
        case '\t':
          escaped = "\\t";
          break;
        default:
          if (static_cast<unsigned char>(c) >= 0x20) {
            dest.push_back(c);
            continue;
          }
          std::snprintf(control, sizeof(control), "\\u%04x", c);
      }
      dest.append(escaped, escaped + std::strlen(escaped));
    }
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<JsonEscapedMessage>();
  }
};

}  // namespace

absl::Status SetLogFormat(const std::string& format) {
  if (format == "text") {
    spdlog::set_pattern("[%Y-%m-%d %H:%M:%S.%e] [%n] [%^%l%$] %v");
    return absl::OkStatus();
  }
  if (format == "json") {
    auto formatter = std::make_unique<spdlog::pattern_formatter>();
    formatter->add_flag<JsonEscapedMessage>('*').set_pattern(
        R"({"time":"%Y-%m-%dT%H:%M:%S.%e%z","level":"%l","logger":"%n","pid":%P,"thread":%t,)"
        R"("message":"%*"})");
    spdlog::set_formatter(std::move(formatter));
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat("--log_format=", format, ": not text or json"));
}

}  // namespace npud::daemon
