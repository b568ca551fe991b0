#include "daemon/session/model_run.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "daemon/session/session_state.h"

namespace npud::daemon {
namespace {

// Lane streams take ids far above the ones clients mint.
std::atomic<uint64_t> next_lane_id{uint64_t{1} << 60};

// How deep conditions and task groups may nest in one lane (a branch may
// hold a condition whose branch is its own parent).
constexpr size_t kMaxFrames = 64;

bool IsControl(const v1::Call& call) {
  return call.has_switch_label() || call.has_activate_stream() || call.has_switch_stream() ||
         call.has_cond_task() || (call.has_task_group_mark() && !call.task_group_mark().end());
}

template <typename T>
absl::StatusOr<T> ReadDevice(SessionState& s, uint64_t address) {
  NPUD_ASSIGN_OR_RETURN(sim::DeviceRange at, s.memory.Access(address, sizeof(T)));
  T value;
  std::memcpy(&value, at.data(), sizeof(T));
  return value;
}

// aclrtCondition on two values.
absl::StatusOr<bool> Compare(int64_t left, uint32_t condition, int64_t right) {
  switch (condition) {
    case 0:
      return left == right;
    case 1:
      return left != right;
    case 2:
      return left > right;
    case 3:
      return left >= right;
    case 4:
      return left < right;
    case 5:
      return left <= right;
    default:
      return AclError(kRtParamInvalid, absl::StrFormat("%d is not an aclrtCondition", condition));
  }
}

absl::StatusOr<int64_t> ReadOperand(SessionState& s, uint64_t address, bool int64) {
  if (int64) return ReadDevice<int64_t>(s, address);
  NPUD_ASSIGN_OR_RETURN(int32_t value, ReadDevice<int32_t>(s, address));
  return value;
}

}  // namespace

// The executing stream's task: starts the run when the stream reaches it,
// finishes when the run does.
class ModelRun::GateTask final : public sim::Task {
 public:
  explicit GateTask(std::shared_ptr<ModelRun> run) : run_(std::move(run)) {}

  Progress Run(const sim::Waker& wake, absl::Status* status) override {
    if (!started_) {
      started_ = true;
      run_->Start(wake);
    }
    {
      absl::MutexLock lock(&run_->mu_);
      if (!run_->started_ || run_->active_ > 0) return Progress::kPending;
    }
    *status = run_->Finish();
    return Progress::kDone;
  }
  void Cancel(const absl::Status& why) override {
    run_->Abort(why);
    run_->Finish().IgnoreError();
  }
  // A force-destroyed stream does not wait for the run.
  bool WaitsOnOthers() const override { return true; }
  const char* name() const override { return "model_run"; }

 private:
  const std::shared_ptr<ModelRun> run_;
  bool started_ = false;
};

// A head lane's first task: holds the lane until the run starts.
class ModelRun::LaneGateTask final : public sim::Task {
 public:
  explicit LaneGateTask(std::shared_ptr<ModelRun> run) : run_(std::move(run)) {}

  Progress Run(const sim::Waker& wake, absl::Status* status) override {
    absl::MutexLock lock(&run_->mu_);
    if (!run_->started_) {
      run_->lane_gates_.push_back(wake);
      return Progress::kPending;
    }
    *status = absl::OkStatus();
    return Progress::kDone;
  }
  const char* name() const override { return "model_lane_gate"; }

 private:
  const std::shared_ptr<ModelRun> run_;
};

// A lane's control task: decides when the lane's earlier tasks are done.
class ModelRun::ControlTask final : public sim::Task {
 public:
  ControlTask(std::shared_ptr<ModelRun> run, size_t lane) : run_(std::move(run)), lane_(lane) {}

  Progress Run(const sim::Waker&, absl::Status* status) override {
    run_->Control(lane_);
    *status = absl::OkStatus();
    return Progress::kDone;
  }
  void Cancel(const absl::Status&) override { run_->EndLane(lane_); }
  const char* name() const override { return "model_control"; }

 private:
  const std::shared_ptr<ModelRun> run_;
  const size_t lane_;
};

ModelRun::ModelRun(uint64_t model_id, std::shared_ptr<const CapturedModel> model, int device_id,
                   int depth, std::shared_ptr<Gate> gate)
    : model_id_(model_id),
      model_(std::move(model)),
      device_id_(device_id),
      depth_(depth),
      gate_(std::move(gate)) {}

std::unique_ptr<sim::Task> ModelRun::MakeGateTask() {
  return std::make_unique<GateTask>(shared_from_this());
}

bool ModelRun::Done() const {
  absl::MutexLock lock(&mu_);
  return done_;
}

std::vector<uint64_t> ModelRun::LaneStreamIds() const {
  absl::MutexLock lock(&mu_);
  std::vector<uint64_t> ids;
  for (const Lane& lane : lanes_) {
    if (lane.registered) ids.push_back(lane.stream_id);
  }
  return ids;
}

void ModelRun::Fail(const absl::Status& error) {
  if (error_.ok()) error_ = error;
}

void ModelRun::Launch(Host& host) {
  SessionState& s = host.state();
  absl::Status made;
  {
    absl::MutexLock lock(&mu_);
    for (size_t i = 0; i < model_->streams.size(); ++i) {
      Lane& lane = lanes_.emplace_back();
      lane.stream_id = next_lane_id.fetch_add(1);
      lane.stream = std::make_shared<sim::Stream>(device_id_, lane.stream_id,
                                                  &s.devices().scheduler(), s.timeline);
      // An id a client minted itself is not the run's to drop later.
      absl::Status added = s.streams.Add(lane.stream_id, lane.stream);
      lane.registered = added.ok();
      made.Update(added);
    }
  }
  if (!made.ok()) {
    // The gate reports it when the stream reaches it.
    absl::MutexLock lock(&mu_);
    Fail(made);
    return;
  }
  for (size_t i = 0; i < model_->streams.size(); ++i) {
    if (model_->streams[i].head) Activate(host, i, 0, /*gated=*/true);
  }
}

void ModelRun::Start(const sim::Waker& wake) {
  {
    absl::MutexLock lock(&mu_);
    wake_gate_ = wake;
  }
  if (!model_->conditions.empty()) {
    // Conditions that start every run with their default value.
    absl::MutexLock gate(&gate_->mu);
    if (gate_->host != nullptr) {
      SessionState& s = gate_->host->state();
      for (const auto& [address, value] : model_->conditions) {
        absl::StatusOr<sim::DeviceRange> at = s.memory.Access(address, sizeof(value));
        if (at.ok()) std::memcpy(at->data(), &value, sizeof(value));
        absl::MutexLock lock(&mu_);
        Fail(at.status());
      }
    }
  }
  std::vector<sim::Waker> lanes;
  {
    absl::MutexLock lock(&mu_);
    started_ = true;
    lanes.swap(lane_gates_);
  }
  for (const sim::Waker& lane : lanes) lane();
  // Releases the hold on the run.
  LaneDrained(absl::OkStatus());
}

absl::Status ModelRun::Finish() {
  absl::MutexLock lock(&mu_);
  done_ = true;
  return error_;
}

void ModelRun::Abort(const absl::Status& why) {
  std::vector<std::shared_ptr<sim::Stream>> streams;
  {
    absl::MutexLock lock(&mu_);
    if (done_) return;
    aborted_ = true;
    Fail(why);
    for (const Lane& lane : lanes_) streams.push_back(lane.stream);
  }
  for (const auto& stream : streams) stream->Discard(why);
}

void ModelRun::Activate(Host& host, size_t lane, size_t at, bool gated) {
  std::shared_ptr<sim::Stream> stream;
  {
    absl::MutexLock lock(&mu_);
    Lane& l = lanes_[lane];
    if (aborted_ || l.running) return;
    l.running = true;
    const CallList& calls = model_->streams[lane].calls;
    l.frames.push_back(Frame{model_, &calls, at});
    ++active_;
    stream = l.stream;
  }
  if (gated) stream->Submit(std::make_unique<LaneGateTask>(shared_from_this()));
  Advance(host, lane);
}

void ModelRun::Advance(Host& host, size_t lane) {
  while (true) {
    v1::Call call;
    uint64_t stream_id = 0;
    std::shared_ptr<sim::Stream> stream;
    {
      absl::MutexLock lock(&mu_);
      Lane& l = lanes_[lane];
      if (aborted_) l.frames.clear();
      while (!l.frames.empty() && l.frames.back().next >= l.frames.back().calls->size()) {
        l.frames.pop_back();
      }
      if (l.frames.empty()) break;
      Frame& frame = l.frames.back();
      const v1::Call& next = (*frame.calls)[frame.next];
      if (next.has_model_end_task()) {
        l.frames.clear();
        break;
      }
      if (IsControl(next)) {
        stream = l.stream;
      } else {
        ++frame.next;
        // Labels and group ends only mark places; disabled tasks are off.
        if (next.has_set_label() || next.has_task_group_mark() || next.disabled()) continue;
        call = next;
        stream_id = l.stream_id;
      }
    }
    if (stream != nullptr) {
      stream->Submit(std::make_unique<ControlTask>(shared_from_this(), lane));
      return;
    }
    SetStreamOfWork(&call, stream_id);
    host.DispatchRecorded(call, depth_);
  }
  EndLane(lane);
}

void ModelRun::Control(size_t lane) {
  absl::MutexLock gate(&gate_->mu);
  if (gate_->host == nullptr) return EndLane(lane);
  Host& host = *gate_->host;
  v1::Call call;
  {
    absl::MutexLock lock(&mu_);
    Lane& l = lanes_[lane];
    if (aborted_ || l.frames.empty()) {
      l.frames.clear();
    } else {
      const Frame& frame = l.frames.back();
      call = (*frame.calls)[frame.next];
    }
  }
  if (call.op_case() != v1::Call::OP_NOT_SET) {
    absl::StatusOr<LaneStart> start = Decide(host, lane, call);
    if (!start.ok()) {
      absl::MutexLock lock(&mu_);
      Fail(start.status());
      lanes_[lane].frames.clear();
    } else if (start->lane >= 0) {
      Activate(host, static_cast<size_t>(start->lane), start->at);
    }
  }
  Advance(host, lane);
}

absl::StatusOr<ModelRun::LaneStart> ModelRun::Decide(Host& host, size_t lane,
                                                     const v1::Call& call) {
  SessionState& s = host.state();
  LaneStart start;
  // What the lane does next, decided outside the lock (device reads).
  std::shared_ptr<const void> keep;
  const CallList* inner = nullptr;
  bool advance = true;
  bool jump = false;
  size_t jump_to = 0;

  if (call.has_switch_label()) {
    const v1::SwitchLabel& op = call.switch_label();
    NPUD_ASSIGN_OR_RETURN(uint32_t index, ReadDevice<uint32_t>(s, op.index_address()));
    const size_t count = std::min<size_t>(op.max_value(), op.label_ids_size());
    if (count == 0) return AclError(kRtParamInvalid, "a label switch without labels");
    // Past the last label: the last one.
    const auto [target, at] = model_->labels.at(op.label_ids(std::min<size_t>(index, count - 1)));
    if (target == lane) {
      jump = true;
      jump_to = at;
    } else {
      start = LaneStart{static_cast<int>(target), at};
      absl::MutexLock lock(&mu_);
      lanes_[lane].frames.clear();
      return start;
    }
  } else if (call.has_activate_stream()) {
    start.lane =
        static_cast<int>(model_->stream_index.at(call.activate_stream().target_stream_id()));
  } else if (call.has_switch_stream()) {
    const v1::SwitchStream& op = call.switch_stream();
    NPUD_ASSIGN_OR_RETURN(int64_t left, ReadOperand(s, op.left_address(), op.int64()));
    NPUD_ASSIGN_OR_RETURN(int64_t right, ReadOperand(s, op.right_address(), op.int64()));
    NPUD_ASSIGN_OR_RETURN(bool holds, Compare(left, op.condition(), right));
    const uint64_t target = holds ? op.true_stream_id() : op.false_stream_id();
    if (target != 0) start.lane = static_cast<int>(model_->stream_index.at(target));
  } else if (call.has_cond_task()) {
    const v1::CondTask& op = call.cond_task();
    NPUD_ASSIGN_OR_RETURN(uint64_t value, ReadDevice<uint64_t>(s, op.cond_address()));
    int branch = -1;
    switch (op.type()) {
      case 0:  // IF: the first model if set, else the second, if any
        branch = value != 0 ? 0 : (op.model_ids_size() > 1 ? 1 : -1);
        break;
      case 1:  // WHILE: the body, then this task again
        if (value != 0) {
          branch = 0;
          advance = false;
        }
        break;
      case 2:  // SWITCH: model `value`, none past the last
        if (value < static_cast<uint64_t>(op.model_ids_size())) branch = static_cast<int>(value);
        break;
      default:
        return AclError(kRtParamInvalid, absl::StrFormat("%d is not a condition type", op.type()));
    }
    if (branch >= 0 && branch < op.model_ids_size()) {
      NPUD_ASSIGN_OR_RETURN(std::shared_ptr<const CapturedModel> model,
                            s.models.Find(op.model_ids(branch)));
      if (!model->streams.empty()) inner = &model->streams[0].calls;
      keep = std::move(model);
    }
  } else if (call.has_task_group_mark()) {
    NPUD_ASSIGN_OR_RETURN(GroupCalls calls, s.models.Group(call.task_group_mark().group_id()));
    inner = calls.get();
    keep = std::move(calls);
  }

  absl::MutexLock lock(&mu_);
  Lane& l = lanes_[lane];
  Frame& frame = l.frames.back();
  if (jump) {
    // Labels live in the stream's own calls, the lane's outermost frame.
    l.frames.resize(1);
    l.frames[0].next = jump_to;
    return start;
  }
  if (call.has_task_group_mark()) {
    // Past the group's recorded calls and end mark: the group runs as
    // updated.
    size_t end = frame.next + 1;
    while (end < frame.calls->size() && !(*frame.calls)[end].has_task_group_mark()) ++end;
    frame.next = end + 1;
  } else if (advance) {
    ++frame.next;
  }
  if (inner != nullptr) {
    if (l.frames.size() >= kMaxFrames) {
      return AclError(
          kRtModelExecute,
          absl::StrFormat("conditions and task groups nest more than %d deep", kMaxFrames));
    }
    l.frames.push_back(Frame{std::move(keep), inner, 0});
  }
  return start;
}

void ModelRun::EndLane(size_t lane) {
  std::shared_ptr<sim::Stream> stream;
  {
    absl::MutexLock lock(&mu_);
    Lane& l = lanes_[lane];
    l.frames.clear();
    if (!l.running) return;
    l.running = false;
    stream = l.stream;
  }
  auto self = shared_from_this();
  stream->NotifyWhenDrained([self](absl::Status status) { self->LaneDrained(status); });
}

void ModelRun::LaneDrained(const absl::Status& status) {
  sim::Waker wake;
  {
    absl::MutexLock lock(&mu_);
    Fail(status);
    if (--active_ > 0) return;
    wake = wake_gate_;
  }
  if (wake) wake();
}

}  // namespace npud::daemon
