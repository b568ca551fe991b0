// host_cpu_share.h
//
// How the AI cores of a device are shared between sessions. Each session's
// kernels run in a kernel host of its own (kernel_host.h), whose core
// threads are plain CPU threads, so sharing the cores fairly is sharing the
// CPUs fairly between hosts — a job the kernel's scheduler already does
// well, at any granularity, when it is told what a host is.
//
// It is told with autogroups: each host starts a session of its own
// (setsid), and Linux's CFS then schedules every session as one entity
// whose weight is its autogroup's nice value. A host with 48 busy core
// threads weighs as much as a host with one, and neither outweighs npud's
// own threads, which would otherwise queue behind the 48 (a victim's short
// kernel waited tens of milliseconds for npud to hand it over). A lone host
// still gets every CPU: weights only matter when CPUs are contended.
//
// Weights are relative: 1 is the default, 3 gets three times the CPU of a
// 1 when both want more than there is. Limits: autogroups apply to
// processes of the root CPU cgroup (npud under a systemd unit with its own
// cpu controller, or in a container, gets per-thread sharing instead: see
// docs/design.md), and weights above 1 need npud to hold CAP_SYS_NICE.

#ifndef NPUD_SIMDEVICE_EXECUTOR_HOST_CPU_SHARE_H_
#define NPUD_SIMDEVICE_EXECUTOR_HOST_CPU_SHARE_H_

#include <sys/types.h>

#include "absl/status/status.h"

namespace npud::sim {

// The autogroup nice value whose CFS weight is closest to `weight` times
// nice 0's (each nice step is a factor of about 1.25), within -20..19.
int NiceForCpuWeight(double weight);

// Gives the autogroup of `pid` (a session leader) the CPU weight `weight`.
// FailedPrecondition when autogroups are off, PermissionDenied when raising
// the weight needs a privilege npud lacks.
absl::Status SetCpuWeight(pid_t pid, double weight);

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_EXECUTOR_HOST_CPU_SHARE_H_
