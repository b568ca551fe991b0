// elf_functions.h
//
// Where a function of a loaded kernel object lies in the object's file: its
// offset and its size from the ELF symbol table (aclrtGetFunctionAddr and
// aclrtGetFunctionSize report them within the binary's device copy). The
// file is untrusted: every offset is bounds-checked, and a file that does not
// say gets NotFound, never a crash.

#ifndef NPUD_SIMDEVICE_ELF_FUNCTIONS_H_
#define NPUD_SIMDEVICE_ELF_FUNCTIONS_H_

#include <cstdint>

#include "absl/status/statusor.h"

namespace npud::sim {

struct FunctionCode {
  uint64_t file_offset = 0;
  uint64_t size = 0;
};

// The function symbol (.symtab, else .dynsym) whose value is `address`, a
// virtual address of the 64-bit ELF object held by the file `fd`.
absl::StatusOr<FunctionCode> FunctionCodeAt(int fd, uint64_t address);

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_ELF_FUNCTIONS_H_
