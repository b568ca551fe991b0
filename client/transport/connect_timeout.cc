// ConnectTimeout(): the one bound on how long any transport waits for a
// daemon to accept and answer the hello (see transport.h).

#include <cstdlib>

#include "absl/strings/numbers.h"
#include "client/transport/transport.h"

namespace npud::client {

absl::Duration ConnectTimeout() {
  int64_t ms = 0;
  if (const char* env = std::getenv("NPUD_CONNECT_TIMEOUT_MS");
      env != nullptr && absl::SimpleAtoi(env, &ms) && ms > 0) {
    return absl::Milliseconds(ms);
  }
  return absl::Seconds(10);
}

}  // namespace npud::client
