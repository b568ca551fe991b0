// client_log.h
//
// The client library's logger: stderr, level from NPUD_LOG_LEVEL (trace,
// debug, info, warn, error; default warn) so that a program's stdout carries
// only what the program (and its device printf) writes.

#ifndef NPUD_CLIENT_CORE_CLIENT_LOG_H_
#define NPUD_CLIENT_CORE_CLIENT_LOG_H_

#include "spdlog/logger.h"

namespace npud::client {

// Creates the logger on first call; later calls are no-ops.
void InitClientLog();
spdlog::logger& ClientLog();

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_CLIENT_LOG_H_
