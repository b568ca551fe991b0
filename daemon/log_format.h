// log_format.h
//
// How npud's log lines look (--log_format): "text" for people, or "json",
// one JSON object per line for log collectors:
//
//   {"time":"2026-12-02T14:52:09.917+00:00","level":"info","logger":"npud",
//    "pid":12,"thread":34,"message":"bulk channel on 0.0.0.0:50052 (TLS)"}
//
// The message is escaped as JSON strings require, so any text is safe.

#ifndef NPUD_DAEMON_LOG_FORMAT_H_
#define NPUD_DAEMON_LOG_FORMAT_H_

#include <string>

#include "absl/status/status.h"

namespace npud::daemon {

// Sets the default spdlog logger's format. InvalidArgument for a format
// other than "text" and "json".
absl::Status SetLogFormat(const std::string& format);

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_LOG_FORMAT_H_
