#include "client/core/thread_state.h"

namespace npud::client {

ThreadState& ThisThread() {
  static thread_local ThreadState state;
  return state;
}

}  // namespace npud::client
