#include "daemon/session/session_kernels.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "simdevice/device_memory.h"
#include "simdevice/executor/hosted_launch.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

constexpr uint64_t kPage = sim::DeviceMemory::kPageSize;

uint64_t PagesOf(uint64_t size) { return size == 0 ? kPage : (size + kPage - 1) / kPage * kPage; }

std::vector<sim::KernelInfo> KernelsOf(const sim::DescribedBinary& described) {
  std::vector<sim::KernelInfo> kernels;
  for (const sim::host::KernelEntryInfo& entry : described.kernels) {
    kernels.push_back({entry.name, nullptr, entry.args_size, entry.kernel_type, entry.params,
                       entry.code_offset, entry.code_size});
  }
  return kernels;
}

// A host's own memory (its threads, unified buffers, libraries) that is not
// charged to the session, so a session whose allocations fill its quota
// still gets a host.
constexpr uint64_t kUncountedHostBytes = 64ull << 20;

// Keeps one host's private memory charged to the session's quota: each
// report replaces the last; a report past the quota is refused (the host is
// then killed) and leaves the last one charged.
std::function<bool(uint64_t)> HostMemoryCharge(std::shared_ptr<MemoryQuota> quota) {
  struct Charged {
    absl::Mutex mu;
    uint64_t bytes ABSL_GUARDED_BY(mu) = 0;
  };
  auto charged = std::make_shared<Charged>();
  return [quota = std::move(quota), charged](uint64_t resident) {
    const uint64_t bytes = resident > kUncountedHostBytes ? resident - kUncountedHostBytes : 0;
    absl::MutexLock lock(&charged->mu);
    if (bytes <= charged->bytes) {
      quota->Uncharge(charged->bytes - bytes);
      charged->bytes = bytes;
      return true;
    }
    if (!quota->Charge(bytes - charged->bytes).ok()) return false;
    charged->bytes = bytes;
    return true;
  };
}

}  // namespace

absl::StatusOr<std::shared_ptr<const LoadedBinary>> SessionKernels::Load(uint64_t binary_id,
                                                                         absl::string_view bytes,
                                                                         absl::string_view label) {
  auto binary = std::make_shared<LoadedBinary>();
  binary->label = std::string(label);
  if (!hosted()) {
    NPUD_ASSIGN_OR_RETURN(binary->module, sim::KernelModule::Load(bytes, label));
    binary->kernels = binary->module->kernels();
    for (const sim::VariableInfo& variable : binary->module->variables()) {
      binary->variables.push_back(
          {variable.name, variable.size,
           std::string(reinterpret_cast<const char*>(variable.address), variable.size)});
    }
    return std::shared_ptr<const LoadedBinary>(std::move(binary));
  }
  if (!options_.refused.empty()) {
    return AclError(kRtFeatureNotSupport,
                    absl::StrCat("npud does not run kernel binaries: ", options_.refused));
  }
  NPUD_ASSIGN_OR_RETURN(const int fd, sim::KernelModule::StoreFile(bytes, label));
  binary->file.reset(fd);

  absl::MutexLock lock(&mu_);
  binaries_[binary_id] = binary;
  std::vector<sim::DescribedBinary> described;
  absl::Status started = StartHost(&described);
  const auto index = host_index_.find(binary_id);
  if (started.ok() && index != host_index_.end() && described[index->second].error.empty()) {
    binary->kernels = KernelsOf(described[index->second]);
    for (sim::host::VariableEntryInfo& variable : described[index->second].variables) {
      binary->variables.push_back(
          {std::move(variable.name), variable.size, std::move(variable.initial)});
    }
    return std::shared_ptr<const LoadedBinary>(std::move(binary));
  }
  binaries_.erase(binary_id);
  if (ToAclCode(started) == kRtResourceAllocFail) {
    return AclError(kRtResourceAllocFail,
                    absl::StrCat("cannot load kernel binary '", label, "': ", started.message()));
  }
  const std::string why = started.ok() && index != host_index_.end()
                              ? described[index->second].error
                              : std::string(started.message());
  // The host that refused the binary still serves the others; the next
  // launch replaces it with one without the binary.
  return AclError(kRtParamInvalid, absl::StrCat("cannot load kernel binary '", label, "': ", why));
}

std::vector<uint64_t> SessionKernels::Unload(uint64_t binary_id) {
  absl::MutexLock lock(&mu_);
  binaries_.erase(binary_id);
  std::vector<uint64_t> memory;
  const auto it = binary_memory_.find(binary_id);
  if (it == binary_memory_.end()) return memory;
  if (it->second.variables != 0) memory.push_back(it->second.variables);
  if (it->second.image != 0) memory.push_back(it->second.image);
  binary_memory_.erase(it);
  return memory;
}

std::vector<uint64_t> SessionKernels::VariableOffsets(const LoadedBinary& binary, uint64_t* total) {
  std::vector<uint64_t> offsets;
  *total = 0;
  for (const BinaryVariable& variable : binary.variables) {
    offsets.push_back(*total);
    *total += PagesOf(variable.size);
  }
  return offsets;
}

absl::Status SessionKernels::PlaceVariables(uint64_t binary_id, const LoadedBinary& binary,
                                            int device_id, uint64_t address) {
  if (!hosted()) {
    // The module's variable pages become the device memory, in this process.
    uint64_t total = 0;
    const std::vector<uint64_t> offsets = VariableOffsets(binary, &total);
    NPUD_ASSIGN_OR_RETURN(const sim::DeviceRange block, devices_->Resolve(address, total));
    const std::vector<sim::VariableInfo>& variables = binary.module->variables();
    for (size_t i = 0; i < variables.size() && i < offsets.size(); ++i) {
      const off_t offset = static_cast<off_t>(block.FileOffsetOf(address + offsets[i]));
      if (mmap(reinterpret_cast<void*>(variables[i].address), variables[i].mapped_size(),
               PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, block.fd, offset) == MAP_FAILED) {
        return AclError(kRtInternalError,
                        absl::StrCat("cannot map device variable '", variables[i].name,
                                     "': ", std::strerror(errno)));
      }
    }
  }
  absl::MutexLock lock(&mu_);
  BinaryMemory& memory = binary_memory_[binary_id];
  memory.device_id = device_id;
  memory.variables = address;
  synced_ledger_ = ~0ull;  // the host maps them before the next launch
  return absl::OkStatus();
}

std::optional<std::pair<uint64_t, uint64_t>> SessionKernels::Image(uint64_t binary_id) const {
  absl::MutexLock lock(&mu_);
  const auto it = binary_memory_.find(binary_id);
  if (it == binary_memory_.end() || it->second.image == 0) return std::nullopt;
  return std::make_pair(it->second.image, it->second.image_size);
}

void SessionKernels::SetImage(uint64_t binary_id, uint64_t address, uint64_t size) {
  absl::MutexLock lock(&mu_);
  BinaryMemory& memory = binary_memory_[binary_id];
  memory.image = address;
  memory.image_size = size;
}

absl::StatusOr<std::string> SessionKernels::ReadBytes(const LoadedBinary& binary) {
  const int fd = binary.module != nullptr ? binary.module->fd() : binary.file.get();
  struct stat info;
  if (fd < 0 || fstat(fd, &info) != 0) {
    return AclError(kRtInternalError, absl::StrCat("cannot read kernel binary '", binary.label,
                                                   "': ", std::strerror(errno)));
  }
  std::string bytes(static_cast<size_t>(info.st_size), '\0');
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = pread(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return AclError(kRtInternalError, absl::StrCat("cannot read kernel binary '", binary.label,
                                                     "': ", std::strerror(errno)));
    }
    done += static_cast<size_t>(n);
  }
  return bytes;
}

absl::Status SessionKernels::MayStartHost() {
  hosts_.erase(std::remove_if(hosts_.begin(), hosts_.end(),
                              [](const std::weak_ptr<sim::KernelHost>& weak) {
                                std::shared_ptr<sim::KernelHost> host = weak.lock();
                                return host == nullptr || !host->alive();
                              }),
               hosts_.end());
  if (options_.max_per_session > 0 &&
      hosts_.size() >= static_cast<size_t>(options_.max_per_session)) {
    return AclError(kRtResourceAllocFail,
                    absl::StrFormat("session %d already has %d kernel hosts alive (older ones end "
                                    "once the launches they were given have run)",
                                    session_id_, hosts_.size()));
  }
  if (options_.max_total > 0 &&
      devices_->kernel_hosts().Live() >= static_cast<size_t>(options_.max_total)) {
    spdlog::warn("session {}: no kernel host: npud runs {} (--max_kernel_hosts)", session_id_,
                 options_.max_total);
    return AclError(kRtResourceAllocFail,
                    absl::StrFormat("npud runs as many kernel hosts as it may (%d, "
                                    "--max_kernel_hosts)",
                                    options_.max_total));
  }
  const absl::Time now = absl::Now();
  start_tokens_ = std::min(kHostStartBurst, start_tokens_ + absl::ToDoubleSeconds(now - refilled_) *
                                                                kHostStartsPerSecond);
  refilled_ = now;
  if (start_tokens_ < 1) {
    // The session's own calls wait; nobody else's do.
    absl::SleepFor(absl::Seconds((1 - start_tokens_) / kHostStartsPerSecond));
    start_tokens_ = 1;
    refilled_ = absl::Now();
  }
  start_tokens_ -= 1;
  return absl::OkStatus();
}

absl::Status SessionKernels::StartHost(std::vector<sim::DescribedBinary>* described) {
  NPUD_RETURN_IF_ERROR(MayStartHost());
  sim::KernelHostConfig config;
  config.binary = options_.binary;
  config.session_id = session_id_;
  NPUD_ASSIGN_OR_RETURN(sim::Device * first, devices_->Get(0));
  config.cores =
      static_cast<int>(std::max(first->config().vector_cores, first->config().cube_cores));
  if (options_.max_threads > 0) config.cores = std::min(config.cores, options_.max_threads);
  config.ub_bytes = first->config().ub_bytes;
  config.data_limit_bytes = options_.data_limit_bytes;
  const std::shared_ptr<MemoryQuota>& quota = memory_->quota();
  if (quota->limit() > 0)
    config.data_limit_bytes = std::min(config.data_limit_bytes, quota->limit());
  config.sandbox = options_.sandbox;
  config.uid = options_.uid;
  config.gid = options_.gid;
  config.cpu_weight = options_.cpu_weight;
  config.cpu_groups = options_.cpu_groups;
  config.reservations = devices_->AddressRanges();
  config.output_budget = output_budget_;
  config.charge_memory = HostMemoryCharge(quota);
  std::vector<sim::HostedBinary> files;
  std::map<uint64_t, uint32_t> index;
  for (const auto& [id, binary] : binaries_) {
    index[id] = static_cast<uint32_t>(files.size());
    files.push_back({binary->label, binary->file.get()});
  }
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::KernelHost> host,
                        sim::KernelHost::Start(config, files, described));
  devices_->kernel_hosts().Add(host);
  hosts_.push_back(host);
  host_ = std::move(host);
  host_index_ = std::move(index);
  host_variables_.clear();
  for (const auto& [id, i] : host_index_) {
    for (const sim::host::VariableEntryInfo& variable : (*described)[i].variables) {
      host_variables_[id].emplace_back(variable.address, PagesOf(variable.size));
    }
  }
  synced_ledger_ = synced_vmm_ = ~0ull;
  return absl::OkStatus();
}

std::vector<sim::HostGrant> SessionKernels::Grants() const {
  std::vector<sim::HostGrant> grants;
  for (const AllocationLedger::Touchable& range : memory_->Touchables()) {
    absl::StatusOr<sim::DeviceRange> pinned = memory_->Access(range.address, range.size);
    if (!pinned.ok() || pinned->fd < 0) continue;
    const uint64_t start = range.address / kPage * kPage;
    const uint64_t end = (range.address + range.size + kPage - 1) / kPage * kPage;
    sim::HostGrant grant;
    grant.address = start;
    grant.size = end - start;
    grant.fd = pinned->fd;
    grant.offset = pinned->FileOffsetOf(start);
    grant.source = reinterpret_cast<uintptr_t>(pinned->pin.get());
    grants.push_back(grant);
  }
  // Two imports of one allocation may overlap: one mapping covers both.
  std::sort(grants.begin(), grants.end(),
            [](const sim::HostGrant& a, const sim::HostGrant& b) { return a.address < b.address; });
  std::vector<sim::HostGrant> merged;
  for (const sim::HostGrant& grant : grants) {
    if (!merged.empty() && merged.back().source == grant.source &&
        grant.address <= merged.back().address + merged.back().size) {
      sim::HostGrant& last = merged.back();
      last.size = std::max(last.address + last.size, grant.address + grant.size) - last.address;
      continue;
    }
    merged.push_back(grant);
  }
  for (const auto& mapping : devices_->vmm().MappingsOf(session_id_)) {
    sim::HostGrant grant;
    grant.address = mapping.address;
    grant.size = mapping.size;
    grant.fd = mapping.memory->fd();
    grant.offset = mapping.offset;
    grant.source = reinterpret_cast<uintptr_t>(mapping.memory.get());
    merged.push_back(grant);
  }
  for (const auto& [id, memory] : binary_memory_) {
    const auto pages = host_variables_.find(id);
    if (memory.variables == 0 || pages == host_variables_.end()) continue;
    absl::StatusOr<sim::DeviceRange> block = devices_->Resolve(memory.variables, 1);
    if (!block.ok() || block->fd < 0) continue;
    uint64_t offset = block->FileOffsetOf(memory.variables);
    for (const auto& [address, bytes] : pages->second) {
      sim::HostGrant grant;
      grant.address = address;
      grant.size = bytes;
      grant.fd = block->fd;
      grant.offset = offset;
      grant.source = reinterpret_cast<uintptr_t>(block->pin.get());
      merged.push_back(grant);
      offset += bytes;
    }
  }
  return merged;
}

std::shared_ptr<const void> SessionKernels::GrantedMemory() const {
  auto pins = std::make_shared<std::vector<std::shared_ptr<const void>>>();
  for (const AllocationLedger::Touchable& range : memory_->Touchables()) {
    absl::StatusOr<sim::DeviceRange> pinned = memory_->Access(range.address, range.size);
    if (pinned.ok()) pins->push_back(std::move(pinned->pin));
  }
  for (const auto& mapping : devices_->vmm().MappingsOf(session_id_)) {
    pins->push_back(mapping.memory);
  }
  return pins;
}

absl::StatusOr<std::unique_ptr<sim::Task>> SessionKernels::MakeLaunch(uint64_t binary_id,
                                                                      const LoadedBinary& binary,
                                                                      sim::LaunchSpec spec,
                                                                      sim::FailureMode mode) {
  spec.binary_id = binary_id;
  if (!hosted()) {
    spec.module = binary.module;
    return sim::MakeKernelLaunchTask(std::move(spec), mode == sim::FailureMode::kStop,
                                     &devices_->cores());
  }
  const sim::KernelInfo& kernel = binary.kernels[spec.kernel];
  absl::MutexLock lock(&mu_);
  if (host_ == nullptr || !host_->alive() || host_index_.count(binary_id) == 0) {
    if (host_ != nullptr && !host_->alive()) {
      spdlog::info("session {}: replacing kernel host {}", session_id_, host_->pid());
    }
    std::vector<sim::DescribedBinary> described;
    NPUD_RETURN_IF_ERROR(StartHost(&described));
    if (host_index_.count(binary_id) == 0) {
      return AclError(kRtInvalidHandle, absl::StrFormat("binary %d is not loaded", binary_id));
    }
  }
  const uint64_t ledger = memory_->version();
  const uint64_t vmm = devices_->vmm().generation();
  if (ledger != synced_ledger_ || vmm != synced_vmm_) {
    host_->SyncGrants(Grants());
    granted_.reset();
    synced_ledger_ = ledger;
    synced_vmm_ = vmm;
  }
  // Launches in flight share one set of pins; once they have all run, the
  // memory the session freed meanwhile goes.
  std::shared_ptr<const void> granted = granted_.lock();
  if (granted == nullptr) {
    granted = GrantedMemory();
    granted_ = granted;
  }
  sim::HostedLaunchSpec hosted;
  hosted.host = host_;
  hosted.stop_on_failure = mode == sim::FailureMode::kStop;
  hosted.launch.binary = host_index_[binary_id];
  hosted.launch.binary_id = binary_id;
  hosted.launch.kernel = static_cast<uint32_t>(spec.kernel);
  hosted.launch.block_dim = spec.block_dim;
  hosted.launch.ub_bytes = spec.ub_bytes;
  hosted.launch.device_id = spec.device_id;
  hosted.launch.stream_id = spec.stream_id;
  hosted.launch.args = std::move(spec.args);
  hosted.launch.placeholders = std::move(spec.placeholders);
  hosted.launch.kernel_name = kernel.name;
  hosted.launch.kernel_type = kernel.kernel_type;
  hosted.launch.timeout = timeout_;
  hosted.args_source = std::move(spec.args_source);
  hosted.min_args_size = kernel.args_size;
  hosted.observer = std::move(spec.observer);
  hosted.keep_alive = std::move(granted);
  return sim::MakeHostedLaunchTask(std::move(hosted));
}

void SessionKernels::SetExecuteTimeout(absl::Duration timeout) {
  absl::MutexLock lock(&mu_);
  timeout_ = timeout <= absl::ZeroDuration() ? absl::InfiniteDuration() : timeout;
}

int64_t SessionKernels::host_pid() const {
  absl::MutexLock lock(&mu_);
  return host_ != nullptr && host_->alive() ? host_->pid() : 0;
}

}  // namespace npud::daemon
