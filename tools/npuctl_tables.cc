#include "tools/npuctl_tables.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace npud::npuctl {
namespace {

uint64_t MiB(uint64_t bytes) { return bytes >> 20; }

uint64_t SessionMemory(const v1::SessionStatus& session) {
  uint64_t bytes = 0;
  for (const auto& [device, device_bytes] : session.memory_bytes()) bytes += device_bytes;
  return bytes;
}

// What the session table says after its counts: memory per device
// (p = physical), mappings, use against limits, the kernel host, the bytes
// copied by path.
std::string SessionDetails(const v1::SessionStatus& session) {
  std::string details;
  for (const auto& [device, bytes] : session.memory_bytes()) {
    absl::StrAppend(&details, device, ":", bytes, " ");
  }
  for (const auto& [device, bytes] : session.physical_bytes()) {
    absl::StrAppend(&details, device, ":", bytes, "p ");
  }
  if (session.mapped_bytes() != 0)
    absl::StrAppend(&details, "mapped:", session.mapped_bytes(), " ");
  if (session.memory_limit_bytes() != 0) {
    absl::StrAppend(&details, "limit:", session.memory_used_bytes(), "/",
                    session.memory_limit_bytes(), " ");
  }
  if (session.stream_limit() != 0) {
    absl::StrAppend(&details, "streams:", session.streams(), "/", session.stream_limit(), " ");
  }
  if (session.event_limit() != 0) {
    absl::StrAppend(&details, "events:", session.events(), "/", session.event_limit(), " ");
  }
  if (session.kernel_host_pid() != 0) {
    absl::StrAppend(&details, "kernel-host:", session.kernel_host_pid(), " ");
  }
  if (!session.tenant().empty()) absl::StrAppend(&details, "tenant:", session.tenant(), " ");
  if (session.cpu_weight() != 0 && session.cpu_weight() != 1) {
    absl::StrAppend(&details, "weight:", session.cpu_weight(), " ");
  }
  // Bytes copied between host and device, by the path they took.
  std::string copied;
  for (const auto& [path, bytes] : {std::pair{"inline", session.inline_copy_bytes()},
                                    std::pair{"window", session.window_copy_bytes()},
                                    std::pair{"staging", session.staging_copy_bytes()},
                                    std::pair{"bulk", session.bulk_copy_bytes()}}) {
    if (bytes != 0) absl::StrAppend(&copied, " ", path, ":", bytes);
  }
  if (!copied.empty()) absl::StrAppend(&details, "copied", copied);
  return details;
}

}  // namespace

std::string DeviceTable(const v1::ListDevicesReply& devices) {
  std::string out = absl::StrFormat("%-6s %-14s %12s %12s %9s\n", "device", "soc", "total MiB",
                                    "used MiB", "sessions");
  for (const v1::DeviceStatus& device : devices.devices()) {
    absl::StrAppendFormat(&out, "%-6d %-14s %12d %12d %9d\n", device.description().device_id(),
                          device.description().soc_name(), MiB(device.description().hbm_bytes()),
                          MiB(device.used_bytes()), device.sessions());
  }
  return out;
}

std::string InfoTable(const v1::ListDevicesReply& devices) {
  constexpr char kRow[] = "| %-4s %-14s | %-7s | %-11s | %-15s | %-8s %-7s |\n";
  const std::string header = absl::StrFormat(kRow, "NPU", "Name", "Health", "AICore c/v",
                                             "HBM-Usage(MB)", "Sessions", "Streams");
  const size_t inner = header.size() - 3;  // between the outer bars
  const std::string rule = "+" + std::string(inner, '-') + "+\n";
  std::string out = rule;
  absl::StrAppendFormat(&out, "| %-*s |\n", inner - 2, "npuctl info: simulated NPUs of npud");
  out += rule + header + rule;
  for (const v1::DeviceStatus& device : devices.devices()) {
    const v1::DeviceDescription& d = device.description();
    absl::StrAppendFormat(&out, kRow, absl::StrCat(d.device_id()), d.soc_name(), "OK",
                          absl::StrCat(d.cube_cores(), "/", d.vector_cores()),
                          absl::StrCat(MiB(device.used_bytes()), " / ", MiB(d.hbm_bytes())),
                          absl::StrCat(device.sessions()), absl::StrCat(device.streams()));
  }
  out += rule;
  return out;
}

std::string SessionTable(const v1::ListSessionsReply& sessions) {
  std::string out =
      absl::StrFormat("%-8s %-8s %-20s %-16s %8s %7s %7s %7s %7s  %s\n", "session", "pid",
                      "program", "host", "allocs", "streams", "events", "exports", "imports",
                      "memory (device:bytes, p = physical), use/limits");
  for (const v1::SessionStatus& session : sessions.sessions()) {
    absl::StrAppendFormat(&out, "%-8d %-8d %-20s %-16s %8d %7d %7d %7d %7d  %s\n",
                          session.session_id(), session.pid(), session.program(), session.host(),
                          session.allocations(), session.streams(), session.events(),
                          session.exports(), session.imports(), SessionDetails(session));
  }
  return out;
}

std::string TopScreen(const v1::ListDevicesReply& devices, const v1::ListSessionsReply& sessions,
                      int rows) {
  std::string out = DeviceTable(devices) + "\n";
  std::vector<const v1::SessionStatus*> by_memory;
  for (const v1::SessionStatus& session : sessions.sessions()) by_memory.push_back(&session);
  std::sort(by_memory.begin(), by_memory.end(),
            [](const auto* a, const auto* b) { return SessionMemory(*a) > SessionMemory(*b); });
  absl::StrAppendFormat(&out, "%-8s %-8s %-20s %12s %7s %7s %14s\n", "session", "pid", "program",
                        "memory MiB", "streams", "events", "copied MiB");
  const int room = std::max(1, rows - devices.devices_size() - 4);
  for (int i = 0; i < static_cast<int>(by_memory.size()) && i < room; ++i) {
    const v1::SessionStatus& s = *by_memory[i];
    const uint64_t copied = s.inline_copy_bytes() + s.window_copy_bytes() + s.staging_copy_bytes() +
                            s.bulk_copy_bytes();
    absl::StrAppendFormat(&out, "%-8d %-8d %-20s %12d %7d %7d %14d\n", s.session_id(), s.pid(),
                          s.program(), MiB(SessionMemory(s)), s.streams(), s.events(), MiB(copied));
  }
  return out;
}

}  // namespace npud::npuctl
