// default_address.h
//
// Where a client looks for npud when NPUD_ADDRESS is unset, and where npud
// listens when --listen is not given: a per-user unix socket.

#ifndef NPUD_PROTO_NPUD_DEFAULT_ADDRESS_H_
#define NPUD_PROTO_NPUD_DEFAULT_ADDRESS_H_

#include <string>

namespace npud {

// $XDG_RUNTIME_DIR/npud.sock, or /tmp/npud-<uid>/npud.sock (the directory is
// created with mode 0700 if missing).
std::string DefaultSocketPath();

}  // namespace npud

#endif  // NPUD_PROTO_NPUD_DEFAULT_ADDRESS_H_
