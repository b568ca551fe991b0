#include "daemon/auth_tokens.h"

#include <algorithm>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "common/constant_time.h"

namespace npud::daemon {

absl::StatusOr<std::vector<AuthToken>> ParseAuthTokens(absl::string_view text) {
  std::vector<AuthToken> tokens;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    const std::vector<absl::string_view> words =
        absl::StrSplit(line, absl::ByAnyChar(" \t"), absl::SkipEmpty());
    AuthToken entry;
    entry.token = std::string(words[0]);
    for (size_t i = 1; i < words.size(); ++i) {
      const std::vector<absl::string_view> pair = absl::StrSplit(words[i], absl::MaxSplits('=', 1));
      if (pair.size() == 2 && pair[0] == "name") {
        const bool valid = !pair[1].empty() && pair[1].size() <= 64 &&
                           std::all_of(pair[1].begin(), pair[1].end(), [](char c) {
                             return absl::ascii_isalnum(c) || c == '.' || c == '_' || c == '-';
                           });
        if (!valid) {
          return absl::InvalidArgumentError(
              absl::StrCat("token file line ", line_number, ": name '", pair[1],
                           "' is not 1-64 letters, digits, '.', '_' or '-'"));
        }
        entry.name = std::string(pair[1]);
        continue;
      }
      if (pair.size() == 2 && pair[0] == "weight") {
        double weight = 0;
        if (!absl::SimpleAtod(pair[1], &weight) || !(weight >= 0.01 && weight <= 100)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "token file line ", line_number, ": weight '", pair[1], "' is not 0.01..100"));
        }
        entry.weight = weight;
        continue;
      }
      uint64_t value = 0;
      if (pair.size() != 2 || !absl::SimpleAtoi(pair[1], &value)) {
        return absl::InvalidArgumentError(
            absl::StrCat("token file line ", line_number, ": '", words[i], "' is not key=number"));
      }
      if (pair[0] == "memory_mib") {
        entry.memory_bytes = value << 20;
      } else if (pair[0] == "streams") {
        entry.streams = static_cast<uint32_t>(value);
      } else if (pair[0] == "events") {
        entry.events = static_cast<uint32_t>(value);
      } else if (pair[0] == "kernel_threads") {
        entry.kernel_threads = static_cast<int>(value);
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat("token file line ", line_number, ": unknown limit '", pair[0],
                         "' (name, memory_mib, streams, events, kernel_threads, weight)"));
      }
    }
    tokens.push_back(std::move(entry));
  }
  if (tokens.empty()) return absl::InvalidArgumentError("the token file holds no token");
  return tokens;
}

const AuthToken* FindAuthToken(const std::vector<AuthToken>& tokens, absl::string_view presented) {
  const AuthToken* found = nullptr;
  for (const AuthToken& entry : tokens) {
    if (ConstantTimeEquals(presented, entry.token) && found == nullptr) found = &entry;
  }
  return found;
}

}  // namespace npud::daemon
