// unix_access.h
//
// UnixAccess: who may use npud's unix sockets (the gRPC one and the local
// protocol's beside it). There the kernel names the peer (SO_PEERCRED), so
// no token or certificate is needed, only a check of its uid:
//
//   --socket_mode=0660      the socket files' permission bits (who may
//                           connect at all, by the file system)
//   --socket_group=npu      their group (a name or a gid)
//   --allowed_uids=1000,1001  uids admitted beyond npud's own; others are
//                           refused at connect with ACL_ERROR_RT_NO_PERMISSION
//
// Without the flags the sockets keep the mode the umask gives and every
// peer that can connect is admitted. Immutable once made, so thread-safe.

#ifndef NPUD_DAEMON_UNIX_ACCESS_H_
#define NPUD_DAEMON_UNIX_ACCESS_H_

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace npud::daemon {

class UnixAccess {
 public:
  UnixAccess() = default;  // everyone, sockets as the umask makes them

  // From the flags' texts: `mode` octal or empty, `group` a name, a number
  // or empty, `uids` numbers. InvalidArgument naming the flag otherwise.
  static absl::StatusOr<UnixAccess> FromFlags(const std::string& mode, const std::string& group,
                                              const std::vector<std::string>& uids);

  // Whether uids are restricted at all (--allowed_uids was given).
  bool restricts_uids() const { return !allowed_uids_.empty(); }
  // Whether some local user may not use the sockets on purpose: uids are
  // restricted, or --socket_mode withholds write (connect) from others.
  bool restricts_peers() const { return restricts_uids() || (mode_ && (*mode_ & 0002) == 0); }
  // OK, or PermissionDenied saying why, for a peer of this uid.
  absl::Status Admit(uint32_t uid) const;
  // Gives the socket file at `path` the mode and group asked for.
  absl::Status ApplyTo(const std::string& path) const;

 private:
  std::optional<mode_t> mode_;
  std::optional<gid_t> group_;
  absl::flat_hash_set<uint32_t> allowed_uids_;  // empty: all; else with npud's own
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_UNIX_ACCESS_H_
