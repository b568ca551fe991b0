// A stand-in for npud-kernel-host that speaks its protocol (host_protocol.h)
// with no kernels, for kernel_host_test. Built three times: as an honest
// host, and as hosts that lie about unmapping — one keeps the mapping it
// acknowledged removing (FAKE_HOST_KEEPS_MAPPING), one keeps the memory
// file of every grant (FAKE_HOST_KEEPS_DESCRIPTOR).

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/frame_io.h"
#include "simdevice/executor/host_protocol.h"

namespace {

using npud::sim::host::Op;
using npud::sim::host::Reader;
using npud::sim::host::Writer;

constexpr int kChannel = 3;

}  // namespace

int main() {
  npud::FrameReader frames(kChannel);
  uint32_t modules = 0;
  while (true) {
    std::string payload;
    std::vector<int> fds;
    if (!frames.Read(&payload, &fds).ok()) return 0;
    Reader in(payload);
    const Op op = in.op();
    if (op == Op::kModule) ++modules;
    for (int fd : fds) close(fd);
    if (op == Op::kStart) break;
  }
  Writer ready(Op::kReady);
  ready.Put(modules);
  for (uint32_t i = 0; i < modules; ++i) {
    ready.PutString("no kernels here").Put(uint32_t{0}).Put(uint32_t{0});
  }
  if (!npud::WriteFrame(kChannel, ready.bytes()).ok()) return 0;
  while (true) {
    std::string payload;
    std::vector<int> fds;
    if (!frames.Read(&payload, &fds).ok()) return 0;
    Reader in(payload);
    const Op op = in.op();
    uint64_t token = 0, address = 0, size = 0, offset = 0;
    if (op == Op::kMap && in.Get(&address) && in.Get(&size) && in.Get(&offset) && fds.size() == 1) {
      if (mmap(reinterpret_cast<void*>(address), size, PROT_READ | PROT_WRITE,
               MAP_SHARED | MAP_FIXED, fds[0], static_cast<off_t>(offset)) == MAP_FAILED) {
        return 3;
      }
#if FAKE_HOST_KEEPS_DESCRIPTOR
      fds.clear();
#endif
    } else if (op == Op::kUnmap && in.Get(&token) && in.Get(&address) && in.Get(&size)) {
#if !FAKE_HOST_KEEPS_MAPPING
      mmap(reinterpret_cast<void*>(address), size, PROT_NONE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
#endif
      if (!npud::WriteFrame(kChannel, Writer(Op::kUnmapped).Put(token).bytes()).ok()) return 0;
    } else {
      return 2;
    }
    for (int fd : fds) close(fd);
  }
}
