// device_identity.h
//
// How CANN names a device and its links, for the simulated devices.
//
// CANN has three ids per device: the user id (the program's index, after
// ASCEND_RT_VISIBLE_DEVICES), the logical id (the host's index) and the
// physical id (the chip's). npud has no visible-devices filter and no
// chips, so all three are the program's device index: the mapping calls
// check their argument as CANN does and answer it unchanged.
//
// A device's UUID and PCI bus id are made up but stable for the life of
// its daemon and the same in every client of that daemon: the UUID derives
// from the daemon's instance id and the device's id on it; the bus id
// is "dddd:bb:00.0" with the daemon's position in NPUD_ADDRESS as PCI domain
// and the device's id on it, plus one, as bus.

#ifndef NPUD_CLIENT_CORE_DEVICE_IDENTITY_H_
#define NPUD_CLIENT_CORE_DEVICE_IDENTITY_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace npud::client {

// The mapping calls (user <-> logical <-> physical): `id` itself, or
// ACL_ERROR_RT_PARAM_INVALID for a negative id and
// ACL_ERROR_RT_INVALID_DEVICEID for one past the devices.
absl::StatusOr<int32_t> MapDeviceId(int32_t id);

// 16 bytes, RFC 9562 layout with version 8 (vendor-defined) and variant 10.
absl::StatusOr<std::array<uint8_t, 16>> DeviceUuid(int32_t device);

// CANN's "%04x:%02x:%02x.%x" form, 12 characters.
absl::StatusOr<std::string> DevicePciBusId(int32_t device);
// The device whose bus id is exactly `bus_id`; ACL_ERROR_RT_PARAM_INVALID
// if none is.
absl::StatusOr<int32_t> DeviceByPciBusId(std::string_view bus_id);

// aclrtGetDevicesTopo: one ACL_RT_DEVS_TOPOLOGY_* bit. Devices of one daemon
// are linked as the cards of one server are (HCCS); devices of different
// daemons only through their hosts (SYS).
absl::StatusOr<uint64_t> DevicesTopology(int32_t device, int32_t other);

// aclrtDevicePeerAccessStatus: 1 if the calling process enabled access
// from `device` to `peer` (aclrtDeviceEnablePeerAccess), else 0.
absl::StatusOr<int32_t> PeerAccessStatus(int32_t device, int32_t peer);

// aclrtDeviceGetHostAtomicCapabilities / GetP2PAtomicCapabilities: checks
// the arguments as CANN does and clears `capabilities`. A 910B on PCIe
// offers no host or peer atomics (only UB-linked parts do), and npud
// simulates that card.
absl::Status AtomicCapabilities(uint32_t* capabilities, const int32_t* operations, uint32_t count,
                                int32_t device, const int32_t* peer);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_DEVICE_IDENTITY_H_
