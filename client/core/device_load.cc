#include "client/core/device_load.h"

#include <utility>

#include "client/core/daemon_calls.h"
#include "common/status_macros.h"
#include "npud/v1/calls.pb.h"

namespace npud::client {

absl::StatusOr<DeviceLoad> DeviceUtilization(int32_t device) {
  v1::Call call;
  call.mutable_get_utilization()->set_device_id(device);
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(call)));
  return DeviceLoad{reply.utilization().vector_percent(), reply.utilization().cube_percent()};
}

}  // namespace npud::client
