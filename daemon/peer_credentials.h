// peer_credentials.h
//
// PeerCredentials: who a connection's peer is according to the kernel
// (SO_PEERCRED on a unix socket). Transports that know it pass it with the
// hello, and it overrides the pid and uid the hello claims.

#ifndef NPUD_DAEMON_PEER_CREDENTIALS_H_
#define NPUD_DAEMON_PEER_CREDENTIALS_H_

#include <cstdint>

namespace npud::daemon {

struct PeerCredentials {
  int64_t pid = 0;
  uint32_t uid = 0;
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_PEER_CREDENTIALS_H_
