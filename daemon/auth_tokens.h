// auth_tokens.h
//
// The tokens clients may present (--auth_token_file): identities, each
// with an optional name and limits of its own, so that one daemon can give
// two teams different shares. The file holds one token per line,
// optionally followed by key=value settings that replace npud's --session_*
// flags for sessions holding that token:
//
//   team-a-secret  name=team-a memory_mib=4096 streams=64 events=256 weight=3
//   team-b-secret  name=team-b kernel_threads=8
//
// name is letters, digits, '.', '_' and '-'; weight is the share of the AI
// cores when sessions contend (relative; 1 is everyone else's).
//
// Blank lines and lines starting with '#' are ignored. A file with a single
// bare token is what older npuds read.

#ifndef NPUD_DAEMON_AUTH_TOKENS_H_
#define NPUD_DAEMON_AUTH_TOKENS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace npud::daemon {

struct AuthToken {
  std::string token;
  // Unset: the daemon's flag applies.
  std::optional<uint64_t> memory_bytes;
  std::optional<uint32_t> streams;
  std::optional<uint32_t> events;
  std::optional<int> kernel_threads;
  // The sessions' share of the AI cores against other sessions (1: like
  // everyone without one).
  std::optional<double> weight;
  // Who holds the token, for logs and npuctl (empty: unnamed).
  std::string name;
};

// InvalidArgument naming the line for an unknown key or a bad number, or
// for a file without tokens.
absl::StatusOr<std::vector<AuthToken>> ParseAuthTokens(absl::string_view text);

// The entry whose token is `presented` (every entry compared in constant
// time), or nullptr.
const AuthToken* FindAuthToken(const std::vector<AuthToken>& tokens, absl::string_view presented);

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_AUTH_TOKENS_H_
