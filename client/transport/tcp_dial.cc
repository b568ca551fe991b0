#include "client/transport/tcp_dial.h"

#include <algorithm>
#include <utility>

#include "absl/time/clock.h"
#include "common/status_macros.h"
#include "common/tls_config.h"
#include "common/tls_stream.h"

namespace npud::client {

absl::StatusOr<std::unique_ptr<ByteStream>> DialNpudPort(const std::string& host, int port,
                                                         absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  NPUD_ASSIGN_OR_RETURN(const ClientTls tls, ClientTlsFromEnv());
  NPUD_ASSIGN_OR_RETURN(UniqueFd fd, ConnectTcp(host, port, timeout));
  if (!tls.enabled()) return MakeSocketStream(std::move(fd));
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<const TlsContext> context, TlsContext::ForClient(tls));
  return TlsConnect(std::move(fd), std::move(context), host,
                    std::max(deadline - absl::Now(), absl::Milliseconds(1)));
}

}  // namespace npud::client
