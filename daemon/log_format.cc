#include "daemon/log_format.h"

#include <cstdio>
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
      switch (c) {
        case '"':
          Append(dest, "\\\"");
          break;
        case '\\':
          Append(dest, "\\\\");
          break;
        case '\n':
          Append(dest, "\\n");
          break;
        case '\r':
          Append(dest, "\\r");
          break;
        case '\t':
          Append(dest, "\\t");
          break;
        default:
          if (static_cast<unsigned char>(c) < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
            Append(dest, escaped);
          } else {
            dest.push_back(c);
          }
      }
    }
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<JsonEscapedMessage>();
  }

 private:
  static void Append(spdlog::memory_buf_t& dest, const char* text) {
    for (; *text != '\0'; ++text) dest.push_back(*text);
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
