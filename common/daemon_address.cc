#include "common/daemon_address.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace npud {

std::string DaemonAddress::GrpcTarget() const {
  return kind == Kind::kUnix ? absl::StrCat("unix:", target) : target;
}

std::string DaemonAddress::ToString() const {
  switch (kind) {
    case Kind::kUnix:
      return absl::StrCat("unix://", target);
    case Kind::kTcp:
      return target;
    case Kind::kFramedTcp:
      return absl::StrCat("npud://", target);
    case Kind::kInproc:
      return "inproc:";
  }
  return target;
}

std::string DaemonAddress::Host() const {
  std::string host = target.substr(0, target.rfind(':'));
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  return host;
}

int DaemonAddress::Port() const {
  int port = 0;
  return absl::SimpleAtoi(absl::string_view(target).substr(target.rfind(':') + 1), &port) ? port
                                                                                          : 0;
}

absl::StatusOr<DaemonAddress> ParseDaemonAddress(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  DaemonAddress address;
  if (text == "inproc:" || text == "inproc") {
    address.kind = DaemonAddress::Kind::kInproc;
    return address;
  }
  if (absl::ConsumePrefix(&text, "unix:")) {
    // unix:/path, unix://path and unix:///path all name /path.
    while (absl::StartsWith(text, "//")) text.remove_prefix(1);
    if (text.empty() || text == "/") {
      return absl::InvalidArgumentError("unix address without a path");
    }
    address.kind = DaemonAddress::Kind::kUnix;
    address.target = std::string(text);
    return address;
  }
  address.kind = absl::ConsumePrefix(&text, "npud://") ? DaemonAddress::Kind::kFramedTcp
                                                       : DaemonAddress::Kind::kTcp;
  const size_t colon = text.rfind(':');
  int port = 0;
  if (text.empty() || colon == absl::string_view::npos ||
      !absl::SimpleAtoi(text.substr(colon + 1), &port) || port < 0 || port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text, "' is not unix:///path, host:port, npud://host:port or inproc:"));
  }
  address.target = std::string(text);
  return address;
}

std::string DefaultSocketPath() {
  if (const char* dir = std::getenv("XDG_RUNTIME_DIR"); dir != nullptr && *dir != '\0') {
    return std::string(dir) + "/npud.sock";
  }
  const std::string dir = "/tmp/npud-" + std::to_string(getuid());
  mkdir(dir.c_str(), 0700);
  return dir + "/npud.sock";
}

std::string LocalSocketPath(absl::string_view grpc_path) {
  return absl::StrCat(grpc_path, ".local");
}

}  // namespace npud
