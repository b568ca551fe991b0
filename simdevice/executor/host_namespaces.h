// host_namespaces.h
//
// A world of its own for a kernel host, set up before any client code runs
// in it (module constructors included):
//
//   EnterNamespaces  (run first, single-threaded): an unprivileged uid when
//                    started as root, and new user, mount, network, IPC and
//                    UTS namespaces. Unless npud runs as root, the host then
//                    executes itself again, so that its memory belongs to
//                    the new user namespace: npud (its owner) can still read
//                    the host's /proc entries after the host has made itself
//                    undumpable, and nobody else of the same uid can. (npud
//                    as root reads them anyway; the second exec costs a few
//                    milliseconds per host start.)
//   EnterEmptyRoot   (after the re-exec): the file system becomes a small
//                    read-only tmpfs that holds the session's kernel binaries
//                    and nothing else: no /proc, no /etc, no sockets, no
//                    token or key files. The binaries are loaded from there.
//
// Without namespaces (the kernel or a container refuses them) npud runs
// hosts only when the operator accepts the weaker sandbox
// (--kernel_sandbox=weak); see docs/design.md "Kernel hosts".

#ifndef NPUD_SIMDEVICE_EXECUTOR_HOST_NAMESPACES_H_
#define NPUD_SIMDEVICE_EXECUTOR_HOST_NAMESPACES_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace npud::sim::host {

// Drops to `uid`/`gid` (only when running as root) and enters new user,
// mount, network, IPC and UTS namespaces in which the process is root. The
// process must be single-threaded.
absl::Status EnterNamespaces(uid_t uid, gid_t gid);

// Replaces the root with a new read-only tmpfs holding the bytes of each
// file in `binaries` (memory files; read, not kept) as /k/<index>.so, and
// returns those paths. Needs EnterNamespaces (in this process image or the
// one before the re-exec).
absl::StatusOr<std::vector<std::string>> EnterEmptyRoot(absl::Span<const int> binaries);

}  // namespace npud::sim::host

#endif  // NPUD_SIMDEVICE_EXECUTOR_HOST_NAMESPACES_H_
