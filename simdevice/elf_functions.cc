#include "simdevice/elf_functions.h"

#include <elf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace npud::sim {
namespace {

// Reads `size` bytes at `offset` of the file (`file_size` bytes long).
bool ReadAt(int fd, uint64_t file_size, uint64_t offset, void* out, uint64_t size) {
  if (offset > file_size || size > file_size - offset) return false;
  auto* bytes = static_cast<char*>(out);
  uint64_t done = 0;
  while (done < size) {
    const ssize_t n = pread(fd, bytes + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<uint64_t>(n);
  }
  return true;
}

}  // namespace

absl::StatusOr<FunctionCode> FunctionCodeAt(int fd, uint64_t address) {
  struct stat info;
  if (fstat(fd, &info) != 0) return absl::InternalError("cannot stat the kernel object");
  const uint64_t file_size = static_cast<uint64_t>(info.st_size);
  Elf64_Ehdr header;
  if (!ReadAt(fd, file_size, 0, &header, sizeof(header)) ||
      header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_shentsize != sizeof(Elf64_Shdr)) {
    return absl::NotFoundError("not a 64-bit ELF object with section headers");
  }
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  if (!ReadAt(fd, file_size, header.e_shoff, sections.data(),
              uint64_t{header.e_shnum} * sizeof(Elf64_Shdr))) {
    return absl::NotFoundError("section headers outside the file");
  }
  for (const uint32_t type : {SHT_SYMTAB, SHT_DYNSYM}) {
    for (const Elf64_Shdr& table : sections) {
      if (table.sh_type != type || table.sh_entsize != sizeof(Elf64_Sym)) continue;
      const uint64_t count = table.sh_size / sizeof(Elf64_Sym);
      std::vector<Elf64_Sym> symbols(count);
      if (!ReadAt(fd, file_size, table.sh_offset, symbols.data(), count * sizeof(Elf64_Sym))) {
        continue;
      }
      for (const Elf64_Sym& symbol : symbols) {
        if (ELF64_ST_TYPE(symbol.st_info) != STT_FUNC || symbol.st_value != address ||
            symbol.st_shndx == SHN_UNDEF || symbol.st_shndx >= sections.size()) {
          continue;
        }
        const Elf64_Shdr& code = sections[symbol.st_shndx];
        if (address < code.sh_addr || address - code.sh_addr > code.sh_size) continue;
        return FunctionCode{code.sh_offset + (address - code.sh_addr), symbol.st_size};
      }
    }
  }
  return absl::NotFoundError(absl::StrFormat("no function symbol at %#x", address));
}

}  // namespace npud::sim
