// address_reservation.h
//
// Reserving address space inside npud: PROT_NONE, MAP_NORESERVE ranges that
// cost nothing until pages are made accessible, placed where clients' host
// pointers do not usually live so the two kinds of numbers do not collide.

#ifndef NPUD_SIMDEVICE_ADDRESS_RESERVATION_H_
#define NPUD_SIMDEVICE_ADDRESS_RESERVATION_H_

#include <cstdint>

#include "absl/status/statusor.h"

namespace npud::sim {

// Reserves `span` bytes at `preferred_base` if that range is free (0: no
// preference), else wherever the kernel puts them. Returns the base.
absl::StatusOr<uint64_t> ReserveAddressSpace(uint64_t span, uint64_t preferred_base);

// Makes [address, address + length) of a reservation inaccessible again and
// gives its pages back, replacing whatever was mapped there.
void FenceAddressRange(uint64_t address, uint64_t length);

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_ADDRESS_RESERVATION_H_
