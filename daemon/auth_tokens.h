// auth_tokens.h
//
// The tokens clients may present (--auth_token_file), each with optional
// limits of its own, so that one daemon can give two teams different
// shares. The file holds one token per line, optionally followed by limits
// that replace npud's --session_* flags for sessions holding that token:
//
//   team-a-secret  memory_mib=4096 streams=64 events=256 kernel_threads=8
//   team-b-secret
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
};

// InvalidArgument naming the line for an unknown key or a bad number, or
// for a file without tokens.
absl::StatusOr<std::vector<AuthToken>> ParseAuthTokens(absl::string_view text);

// The entry whose token is `presented` (every entry compared in constant
// time), or nullptr.
const AuthToken* FindAuthToken(const std::vector<AuthToken>& tokens, absl::string_view presented);

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_AUTH_TOKENS_H_
