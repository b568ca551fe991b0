// host_output.h
//
// What kernels write to their stdout and stderr. A kernel host's descriptors
// 1 and 2 are a pipe that npud reads (KernelHost); the bytes are cut into
// lines here and each line goes into npud's log under the session's name,
// with control characters escaped, so no kernel can write a line that reads
// as npud's own. A session's hosts share one OutputBudget: past its rate
// or its total, lines are dropped and counted, and npud says so once per
// host.
//
// Device printf output is a different path (per launch, to the client).

#ifndef NPUD_SIMDEVICE_EXECUTOR_HOST_OUTPUT_H_
#define NPUD_SIMDEVICE_EXECUTOR_HOST_OUTPUT_H_

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace npud::sim {

// Bytes of kernel output one session may put into npud's log: a token
// bucket (`per_second`, up to `burst` at once) and a total. Thread-safe.
class OutputBudget {
 public:
  OutputBudget(uint64_t per_second, uint64_t burst, uint64_t total)
      : per_second_(per_second), burst_(burst), total_(total), tokens_(burst) {}

  // The defaults npud gives every session.
  static std::shared_ptr<OutputBudget> ForSession() {
    return std::make_shared<OutputBudget>(64 << 10, 256 << 10, 16 << 20);
  }

  // True if `bytes` more may be logged now (and takes them).
  bool Take(uint64_t bytes) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  const uint64_t per_second_;
  const uint64_t burst_;
  const uint64_t total_;
  absl::Mutex mu_;
  double tokens_ ABSL_GUARDED_BY(mu_);
  uint64_t spent_ ABSL_GUARDED_BY(mu_) = 0;
  absl::Time refilled_ ABSL_GUARDED_BY(mu_) = absl::Now();
};

// The output of one host. Used by one thread.
class HostOutput {
 public:
  // Lines longer than this are cut (the rest is counted, not logged).
  static constexpr size_t kMaxLine = 512;

  HostOutput(uint64_t session_id, pid_t pid, std::shared_ptr<OutputBudget> budget)
      : session_id_(session_id), pid_(pid), budget_(std::move(budget)) {}
  // Logs what is left and how much was dropped.
  ~HostOutput();
  HostOutput(const HostOutput&) = delete;
  HostOutput& operator=(const HostOutput&) = delete;

  // Bytes read from the pipe, in order.
  void Add(absl::string_view bytes);

  // "text" with every byte outside printable ASCII (and backslash) written
  // as \xNN.
  static std::string Escape(absl::string_view text);

 private:
  void Line(absl::string_view line);

  const uint64_t session_id_;
  const pid_t pid_;
  const std::shared_ptr<OutputBudget> budget_;
  std::string partial_;
  uint64_t cut_ = 0;  // bytes of the current line past kMaxLine
  uint64_t dropped_lines_ = 0;
  bool said_dropping_ = false;
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_EXECUTOR_HOST_OUTPUT_H_
