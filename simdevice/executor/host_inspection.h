// host_inspection.h
//
// What npud sees of a kernel host from outside, through /proc: the memory
// files it maps and holds descriptors of, and its private memory. A host
// runs client code and may lie about what it did; npud checks these instead
// of believing its answers (KernelHost).

#ifndef NPUD_SIMDEVICE_EXECUTOR_HOST_INSPECTION_H_
#define NPUD_SIMDEVICE_EXECUTOR_HOST_INSPECTION_H_

#include <sys/types.h>

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"

namespace npud::sim {

// Which file a descriptor or mapping refers to.
struct FileIdentity {
  uint64_t dev = 0;
  uint64_t ino = 0;

  bool operator==(const FileIdentity& o) const { return dev == o.dev && ino == o.ino; }
  // The file behind descriptor `fd`.
  static absl::StatusOr<FileIdentity> Of(int fd);
};

struct MappedRange {
  uint64_t start = 0;
  uint64_t end = 0;
  FileIdentity file;
};

// The mappings process `pid` has of any file in `files`.
absl::StatusOr<std::vector<MappedRange>> MappingsOf(pid_t pid,
                                                    const std::vector<FileIdentity>& files);

// Whether process `pid` holds a descriptor of any file in `files`.
absl::StatusOr<bool> HoldsAnyOf(pid_t pid, const std::vector<FileIdentity>& files);

// The private memory of process `pid` that is resident (RssAnon), in bytes.
absl::StatusOr<uint64_t> PrivateResidentBytes(pid_t pid);

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_EXECUTOR_HOST_INSPECTION_H_
