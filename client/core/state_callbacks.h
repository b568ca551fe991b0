// state_callbacks.h
//
// aclrtRegStreamStateCallback / aclrtRegDeviceStateCallback: functions of
// the application told, in the calling thread, when a stream (explicit or a
// context's default stream) has been created or is about to be destroyed,
// and before and after a device is set or reset. Registered by a unique
// name; registering a name twice is refused, an empty function unregisters.
// The states are CANN's enum values (aclrtStreamState, aclrtDeviceState);
// the ABI layer wraps the application's function.
//
// Thread-safe; callbacks run with no lock of the runtime held, in
// registration order.

#ifndef NPUD_CLIENT_CORE_STATE_CALLBACKS_H_
#define NPUD_CLIENT_CORE_STATE_CALLBACKS_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"

namespace npud::client {

// aclrtStreamState.
inline constexpr int kStreamCreated = 1;
inline constexpr int kStreamDestroying = 2;
// aclrtDeviceState.
inline constexpr int kDeviceSetting = 0;
inline constexpr int kDeviceSet = 1;
inline constexpr int kDeviceResetting = 2;
inline constexpr int kDeviceReset = 3;

using StreamStateFn = std::function<void(void* stream, int state)>;
using DeviceStateFn = std::function<void(int32_t device, int state)>;

absl::Status RegisterStreamStateCallback(const std::string& name, StreamStateFn fn);
absl::Status RegisterDeviceStateCallback(const std::string& name, DeviceStateFn fn);

// Tell the registered callbacks. `stream_id` is the stream's handle id.
void NotifyStreamState(uint64_t stream_id, int state);
void NotifyDeviceState(int32_t device, int state);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_STATE_CALLBACKS_H_
