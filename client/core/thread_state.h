// thread_state.h
//
// What CANN keeps per application thread: the current context and the last
// error (code and message).

#ifndef NPUD_CLIENT_CORE_THREAD_STATE_H_
#define NPUD_CLIENT_CORE_THREAD_STATE_H_

#include <cstdint>
#include <optional>
#include <string>

namespace npud::client {

struct ThreadState {
  // Context id (0: none). May name a context destroyed since; users of it
  // look it up in the ObjectRegistry.
  uint64_t current_context = 0;
  // aclrtGetLastError / aclrtPeekAtLastError.
  int32_t last_error = 0;
  // aclGetRecentErrMsg.
  std::string last_message;
  // aclrtUseStreamResInCurrentThread: the stream whose core limits the
  // thread uses (nullopt: none; a null handle is the default stream).
  std::optional<void*> resource_stream;
  // The stream the thread named last (aclrtGetThreadLastTaskId asks for
  // its last task); 0: none yet.
  uint64_t last_stream = 0;
  // aclmdlRICaptureThreadExchangeMode (aclmdlRICaptureMode; 0: global).
  int capture_mode = 0;
};

ThreadState& ThisThread();

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_THREAD_STATE_H_
