#include "client/toolkit/toolkit_log.h"

#include <strings.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <set>
#include <string>

namespace npud::toolkit {
namespace {

// The names spdlog gives the levels, which libacl_rt.so's logger prints.
constexpr const char* kLevelNames[] = {"trace", "debug", "info", "warning", "error"};

LogLevel Threshold() {
  static const LogLevel threshold = [] {
    const char* value = std::getenv("NPUD_LOG_LEVEL");
    if (value == nullptr) return LogLevel::kWarn;
    constexpr const char* kAccepted[] = {"trace", "debug", "info", "warn", "err"};
    for (int i = 0; i < 5; ++i) {
      if (strncasecmp(value, kAccepted[i], std::char_traits<char>::length(kAccepted[i])) == 0) {
        return static_cast<LogLevel>(i);
      }
    }
    return LogLevel::kOff;  // "off", or "critical": nothing here is critical
  }();
  return threshold;
}

}  // namespace

void Log(LogLevel level, const char* format, ...) {
  if (level < Threshold()) return;
  char message[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  timeval now{};
  gettimeofday(&now, nullptr);
  tm local{};
  localtime_r(&now.tv_sec, &local);
  // One fprintf per line, so that lines of several threads do not interleave.
  std::fprintf(stderr, "[%02d:%02d:%02d.%03ld] [npud-client %d] [%s] %s\n", local.tm_hour,
               local.tm_min, local.tm_sec, static_cast<long>(now.tv_usec / 1000),
               static_cast<int>(getpid()), kLevelNames[static_cast<int>(level)], message);
}

void ReportUnsupported(const char* function_name) {
  // Called from C entry points: nothing may throw out of here.
  try {
    static std::mutex mu;
    static auto* reported = new std::set<std::string>();
    {
      std::lock_guard<std::mutex> lock(mu);
      if (!reported->insert(function_name).second) return;
    }
    Log(LogLevel::kWarn,
        "%s is not simulated by npud; it returns its \"feature not supported\" code",
        function_name);
  } catch (...) {
  }
}

}  // namespace npud::toolkit
