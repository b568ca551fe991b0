#include "client/core/platform_info.h"

#include <dlfcn.h>

#include <cstdlib>
#include <fstream>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "common/acl_status.h"

namespace npud::client {
namespace {

// <prefix> when this library is <prefix>/lib64/libacl_rt.so.
std::string OwnPrefix() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&OwnPrefix), &info) == 0 || info.dli_fname == nullptr) {
    return "";
  }
  std::string path = info.dli_fname;
  path = path.substr(0, path.rfind('/'));  // .../lib64
  return path.substr(0, path.rfind('/'));
}

std::string ReadVersionLine(const std::string& file) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    absl::string_view text = absl::StripAsciiWhitespace(line);
    if (absl::ConsumePrefix(&text, "Version=")) return std::string(text);
  }
  return "";
}

}  // namespace

absl::StatusOr<std::string> PackageVersion(const std::string& package) {
  std::vector<std::string> roots;
  if (const char* home = std::getenv("ASCEND_HOME_PATH"); home != nullptr && *home != '\0') {
    roots.push_back(home);
  }
  roots.push_back(OwnPrefix());
  // CANN retries with '-' and '_' swapped.
  const std::vector<std::string> names = {package, absl::StrReplaceAll(package, {{"-", "_"}}),
                                          absl::StrReplaceAll(package, {{"_", "-"}})};
  for (const std::string& root : roots) {
    for (const std::string& name : names) {
      std::string version =
          ReadVersionLine(absl::StrCat(root, "/share/info/", name, "/version.info"));
      if (!version.empty()) return version;
    }
  }
  return AclError(kAclInvalidFile, absl::StrCat("no version.info for package '", package,
                                                "' under $ASCEND_HOME_PATH"));
}

absl::StatusOr<int32_t> VersionNumber(const std::string& version) {
  // "8.5.0", "8.5.RC1", "8.5.0.alpha002", ...
  std::vector<std::string> parts = absl::StrSplit(version, '.');
  int32_t numbers[3] = {0, 0, 0};
  int32_t adjust = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string part = absl::AsciiStrToLower(parts[i]);
    int32_t value = 0;
    if (i < 3 && absl::SimpleAtoi(part, &value)) {
      numbers[i] = value;
      continue;
    }
    for (auto [prefix, offset] :
         {std::pair<const char*, int32_t>{"alpha", -300}, {"beta", -200}, {"rc", -100}}) {
      absl::string_view rest = part;
      if (absl::ConsumePrefix(&rest, prefix)) {
        int32_t n = 0;
        if (!rest.empty() && !absl::SimpleAtoi(rest, &n)) break;
        adjust = offset + n;
      }
    }
  }
  if (parts.empty() || !absl::SimpleAtoi(parts[0], &numbers[0])) {
    return AclError(kAclInternalError, absl::StrCat("cannot parse version '", version, "'"));
  }
  return numbers[0] * 10000000 + numbers[1] * 100000 + numbers[2] * 1000 + adjust;
}

int NpuArchOf(const std::string& soc) {
  const std::string name = absl::AsciiStrToLower(soc);
  if (absl::StartsWith(name, "ascend910b") || absl::StartsWith(name, "ascend910_93")) return 2201;
  if (absl::StartsWith(name, "ascend310p")) return 2002;
  if (absl::StartsWith(name, "ascend950")) return 3510;
  if (absl::StartsWith(name, "ascend310b")) return 3002;
  if (name == "ascend910a" || name == "ascend910proa" || name == "ascend910premiuma") return 1001;
  return 0;
}

}  // namespace npud::client
