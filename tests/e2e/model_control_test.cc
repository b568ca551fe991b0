// Control flow inside models end to end: models built from bound streams
// (aclmdlRIBuildBegin ... BuildEnd), labels, stream activation and
// switches, conditions with branch models, and task group updates. Each
// case marks what ran by writing one byte slot per branch, then checks
// exactly the slots that should have been written.

#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

constexpr size_t kSlots = 8;

class ModelControlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&exec_), ACL_SUCCESS);
    for (aclrtStream* stream : {&head_, &second_, &third_}) {
      ASSERT_EQ(aclrtCreateStreamWithConfig(stream, 0, ACL_STREAM_PERSISTENT), ACL_SUCCESS);
    }
    ASSERT_EQ(aclrtMalloc(&slots_, kSlots, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&values_, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtFree(slots_), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(values_), ACL_SUCCESS);
    for (aclrtStream stream : {exec_, head_, second_, third_}) {
      EXPECT_EQ(aclrtDestroyStreamForce(stream), ACL_SUCCESS);
    }
  }

  // Marks slot `slot` on `stream` (recorded when the stream records).
  aclError Mark(size_t slot, aclrtStream stream) {
    return aclrtMemsetAsync(static_cast<uint8_t*>(slots_) + slot, 1, 0x10 + slot, 1, stream);
  }
  // The slots written since the last Clear, as a string of 0 and 1.
  std::string Written() {
    std::vector<uint8_t> bytes(kSlots);
    EXPECT_EQ(aclrtMemcpy(bytes.data(), kSlots, slots_, kSlots, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    std::string written;
    for (uint8_t byte : bytes) written.push_back(byte != 0 ? '1' : '0');
    return written;
  }
  void Clear() { ASSERT_EQ(aclrtMemset(slots_, kSlots, 0, kSlots), ACL_SUCCESS); }
  // Writes `value` to the 8 bytes at values_ + offset (or at `where`).
  void SetValue(size_t offset, uint64_t value) { SetAt(Value(offset), value); }
  void SetAt(void* where, uint64_t value) {
    ASSERT_EQ(aclrtMemcpy(where, 8, &value, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  }
  void* Value(size_t offset) { return static_cast<uint8_t*>(values_) + offset; }
  void Run(aclmdlRI model) {
    Clear();
    ASSERT_EQ(aclmdlRIExecuteAsync(model, exec_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(exec_), ACL_SUCCESS);
  }

  aclrtStream exec_ = nullptr;
  aclrtStream head_ = nullptr;
  aclrtStream second_ = nullptr;
  aclrtStream third_ = nullptr;
  void* slots_ = nullptr;
  void* values_ = nullptr;
};

TEST_F(ModelControlTest, ALabelSwitchJumpsToTheLabelItsIndexNames) {
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(model, head_, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  aclrtLabel labels[3] = {};
  for (aclrtLabel& label : labels) ASSERT_EQ(aclrtCreateLabel(&label), ACL_SUCCESS);
  aclrtLabelList list = nullptr;
  ASSERT_EQ(aclrtCreateLabelList(labels, 3, &list), ACL_SUCCESS);
  ASSERT_EQ(aclrtSwitchLabelByIndex(Value(0), 3, list, head_), ACL_SUCCESS);
  for (size_t i = 0; i < 3; ++i) {
    ASSERT_EQ(aclrtSetLabel(labels[i], head_), ACL_SUCCESS);
    ASSERT_EQ(Mark(i, head_), ACL_SUCCESS);
  }
  ASSERT_EQ(aclmdlRIEndTask(model, head_), ACL_SUCCESS);
  ASSERT_EQ(Mark(7, head_), ACL_SUCCESS);  // after the end: never runs
  ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS);
  EXPECT_EQ(Written().substr(0, 3), "000") << "building runs nothing";

  // The index is read when the switch runs, so each run may jump elsewhere;
  // past the last label means the last label.
  const std::vector<std::pair<uint32_t, std::string>> cases = {
      {0, "11100000"}, {1, "01100000"}, {2, "00100000"}, {9, "00100000"}};
  for (const auto& [index, written] : cases) {
    SetValue(0, index);
    Run(model);
    EXPECT_EQ(Written(), written) << "index " << index;
  }

  EXPECT_EQ(aclmdlRIUnbindStream(model, head_), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyLabelList(list), ACL_SUCCESS);
  for (aclrtLabel label : labels) EXPECT_EQ(aclrtDestroyLabel(label), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyLabel(labels[0]), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(ModelControlTest, StreamsStartWhenActivatedOrWhenTheirSwitchHolds) {
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(model, head_, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(model, second_, ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(model, third_, ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);
  ASSERT_EQ(Mark(0, head_), ACL_SUCCESS);
  // second_ starts if values_[0] (int32) > values_[8]; third_ always.
  ASSERT_EQ(aclrtSwitchStream(Value(0), ACL_RT_GREATER, Value(8), ACL_RT_SWITCH_INT32, second_,
                              nullptr, head_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtActiveStream(third_, head_), ACL_SUCCESS);
  ASSERT_EQ(Mark(1, second_), ACL_SUCCESS);
  ASSERT_EQ(Mark(2, third_), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS);

  SetValue(0, 5);
  SetValue(8, 3);
  Run(model);
  EXPECT_EQ(Written(), "11100000");
  SetValue(0, 2);
  Run(model);
  EXPECT_EQ(Written(), "10100000");
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

TEST_F(ModelControlTest, ConditionsRunTheirBranchesByTheValueWhenTheyRun) {
  aclrtStream capture = nullptr;
  aclrtStream branch = nullptr;
  ASSERT_EQ(aclrtCreateStream(&capture), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&branch), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(capture, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  aclmdlRI parent = nullptr;
  ASSERT_EQ(aclmdlRICaptureGetInfo(capture, &status, &parent), ACL_SUCCESS);
  aclmdlRICondHandle if_cond = nullptr;
  aclmdlRICondHandle switch_cond = nullptr;
  aclmdlRICondHandle while_cond = nullptr;
  ASSERT_EQ(aclmdlRICondHandleCreate(parent, 0, static_cast<aclmdlRICondHandleFlag>(0), &if_cond),
            ACL_SUCCESS);
  // Reset to 2 at every run, whatever the program writes.
  ASSERT_EQ(
      aclmdlRICondHandleCreate(parent, 2, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &switch_cond),
      ACL_SUCCESS);
  ASSERT_EQ(
      aclmdlRICondHandleCreate(parent, 0, static_cast<aclmdlRICondHandleFlag>(0), &while_cond),
      ACL_SUCCESS);
  uint64_t* if_value = nullptr;
  uint64_t* switch_value = nullptr;
  uint64_t* while_value = nullptr;
  ASSERT_EQ(aclmdlRICondHandleGetCondPtr(if_cond, &if_value), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICondHandleGetCondPtr(switch_cond, &switch_value), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICondHandleGetCondPtr(while_cond, &while_value), ACL_SUCCESS);

  aclmdlRI if_branches[2] = {};
  ASSERT_EQ(aclmdlRIAddCondTask({if_cond, ACL_MODEL_RI_COND_TYPE_IF, 2, if_branches}, capture, 0),
            ACL_SUCCESS);
  aclmdlRI switch_branches[3] = {};
  ASSERT_EQ(aclmdlRIAddCondTask({switch_cond, ACL_MODEL_RI_COND_TYPE_SWITCH, 3, switch_branches},
                                capture, 0),
            ACL_SUCCESS);
  aclmdlRI body[1] = {};
  ASSERT_EQ(aclmdlRIAddCondTask({while_cond, ACL_MODEL_RI_COND_TYPE_WHILE, 1, body}, capture, 0),
            ACL_SUCCESS);
  // Branches: IF marks 0 or 1, SWITCH marks 2 + case.
  for (size_t i = 0; i < 2; ++i) {
    ASSERT_EQ(
        aclmdlRICaptureToModelRIBegin(branch, if_branches[i], ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
        ACL_SUCCESS);
    ASSERT_EQ(Mark(i, branch), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureEnd(branch, &if_branches[i]), ACL_SUCCESS);
  }
  for (size_t i = 0; i < 3; ++i) {
    ASSERT_EQ(aclmdlRICaptureToModelRIBegin(branch, switch_branches[i],
                                            ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
              ACL_SUCCESS);
    ASSERT_EQ(Mark(2 + i, branch), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureEnd(branch, &switch_branches[i]), ACL_SUCCESS);
  }
  // The loop body marks slot 7 and shifts the next condition in:
  // cond <- values_[0], values_[0] <- values_[8], values_[8] <- 0.
  ASSERT_EQ(aclmdlRICaptureToModelRIBegin(branch, body[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
            ACL_SUCCESS);
  void* zero = Value(32);
  ASSERT_EQ(aclrtMemcpyAsync(while_value, 8, Value(0), 8, ACL_MEMCPY_DEVICE_TO_DEVICE, branch),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(Value(0), 8, Value(8), 8, ACL_MEMCPY_DEVICE_TO_DEVICE, branch),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(Value(8), 8, zero, 8, ACL_MEMCPY_DEVICE_TO_DEVICE, branch),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(static_cast<uint8_t*>(slots_) + 7, 1, 0x77, 1, branch), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureEnd(branch, &body[0]), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(capture, &model), ACL_SUCCESS);
  EXPECT_EQ(model, parent);

  SetAt(zero, 0);
  SetAt(if_value, 1);
  SetAt(switch_value, 0);  // reset to 2 by the run
  SetAt(while_value, 0);
  Run(model);
  EXPECT_EQ(Written(), "10001000");
  SetAt(if_value, 0);
  SetAt(while_value, 1);  // three turns: then 1, 1, 0
  SetValue(0, 1);
  SetValue(8, 1);
  Run(model);
  EXPECT_EQ(Written(), "01001001");
  // Three turns emptied the whole shift register; one would leave it full.
  for (void* value : {static_cast<void*>(while_value), Value(0), Value(8)}) {
    uint64_t after = 7;
    ASSERT_EQ(aclrtMemcpy(&after, 8, value, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(after, 0u);
  }

  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);  // and its branches
  EXPECT_EQ(aclmdlRIDestroy(body[0]), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtDestroyStream(capture), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(branch), ACL_SUCCESS);
}

TEST_F(ModelControlTest, AnUpdateReplacesATaskGroupInItsStreamsOrder) {
  aclrtStream capture = nullptr;
  aclrtStream updater = nullptr;
  ASSERT_EQ(aclrtCreateStream(&capture), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&updater), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(capture, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(Mark(0, capture), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureTaskGrpBegin(capture), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRICaptureTaskGrpBegin(capture), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(Mark(1, capture), ACL_SUCCESS);
  aclrtTaskGrp group = nullptr;
  ASSERT_EQ(aclmdlRICaptureTaskGrpEnd(capture, &group), ACL_SUCCESS);
  ASSERT_EQ(Mark(2, capture), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(capture, &model), ACL_SUCCESS);
  Run(model);
  EXPECT_EQ(Written(), "11100000");

  ASSERT_EQ(aclmdlRICaptureTaskUpdateBegin(updater, group), ACL_SUCCESS);
  ASSERT_EQ(Mark(5, updater), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureTaskUpdateEnd(updater), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(updater), ACL_SUCCESS);
  Run(model);
  EXPECT_EQ(Written(), "10100100");

  // An update must queue the same kinds of tasks as the group.
  ASSERT_EQ(aclmdlRICaptureTaskUpdateBegin(updater, group), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(slots_, 1, Value(0), 1, ACL_MEMCPY_DEVICE_TO_DEVICE, updater),
            ACL_SUCCESS);
  EXPECT_EQ(aclmdlRICaptureTaskUpdateEnd(updater), ACL_ERROR_RT_MODEL_UPDATE_FAILED);
  Run(model);
  EXPECT_EQ(Written(), "10100100") << "a failed update changes nothing";

  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(capture), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(updater), ACL_SUCCESS);
}

TEST_F(ModelControlTest, ControlTasksNeedAModelAndBuildingChecksItsParts) {
  aclrtLabel label = nullptr;
  ASSERT_EQ(aclrtCreateLabel(&label), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetLabel(label, exec_), ACL_ERROR_RT_STREAM_MODEL);
  EXPECT_EQ(aclrtActiveStream(head_, exec_), ACL_ERROR_RT_STREAM_MODEL);
  EXPECT_EQ(aclmdlRICaptureTaskGrpBegin(exec_), ACL_ERROR_RT_STREAM_MODEL);

  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(model, head_, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIBindStream(model, head_, ACL_MODEL_STREAM_FLAG_HEAD),
            ACL_ERROR_RT_STREAM_CAPTURED);
  EXPECT_EQ(aclmdlRIBindStream(model, second_, 5), ACL_ERROR_INVALID_PARAM);
  // Not yet built: running it fails.
  EXPECT_EQ(aclmdlRIExecute(model, -1), ACL_ERROR_RT_MODEL_EXECUTE);
  // A stream outside the model cannot be activated: BuildEnd says so.
  ASSERT_EQ(aclrtActiveStream(third_, head_), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_ERROR_RT_STREAM_MODEL);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);

  // Cleaning a bound stream drops what it recorded.
  ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(model, head_, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  ASSERT_EQ(Mark(0, head_), ACL_SUCCESS);
  ASSERT_EQ(aclrtPersistentTaskClean(head_), ACL_SUCCESS);
  ASSERT_EQ(Mark(1, head_), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtPersistentTaskClean(head_), ACL_ERROR_RT_STREAM_MODEL);
  Run(model);
  EXPECT_EQ(Written(), "01000000");
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyLabel(label), ACL_SUCCESS);
}

TEST_F(ModelControlTest, AModelListsItsStreamsAndTheirTasks) {
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(model, head_, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(model, second_, ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);
  ASSERT_EQ(Mark(0, head_), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event, head_), ACL_SUCCESS);
  ASSERT_EQ(aclrtActiveStream(second_, head_), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(second_, event), ACL_SUCCESS);
  ASSERT_EQ(aclrtValueWrite(Value(0), 5, 0, second_), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS);

  uint32_t count = 99;
  ASSERT_EQ(aclmdlRIGetStreams(model, nullptr, &count), ACL_SUCCESS);
  ASSERT_EQ(count, 2u);
  std::vector<aclrtStream> streams(count);
  ASSERT_EQ(aclmdlRIGetStreams(model, streams.data(), &count), ACL_SUCCESS);
  EXPECT_EQ(streams, (std::vector<aclrtStream>{head_, second_}));

  std::vector<aclmdlRITaskType> types;
  for (aclrtStream stream : streams) {
    ASSERT_EQ(aclmdlRIGetTasksByStream(stream, nullptr, &count), ACL_SUCCESS);
    std::vector<aclmdlRITask> tasks(count);
    ASSERT_EQ(aclmdlRIGetTasksByStream(stream, tasks.data(), &count), ACL_SUCCESS);
    for (uint32_t i = 0; i < count; ++i) {
      aclmdlRITaskType type = ACL_MODEL_RI_TASK_DEFAULT;
      uint32_t seq = 99;
      ASSERT_EQ(aclmdlRITaskGetType(tasks[i], &type), ACL_SUCCESS);
      ASSERT_EQ(aclmdlRITaskGetSeqId(tasks[i], &seq), ACL_SUCCESS);
      EXPECT_EQ(seq, i);
      types.push_back(type);
    }
    // The same task, the same handle.
    std::vector<aclmdlRITask> again(count);
    ASSERT_EQ(aclmdlRIGetTasksByStream(stream, again.data(), &count), ACL_SUCCESS);
    EXPECT_EQ(again, tasks);
  }
  EXPECT_EQ(types, (std::vector<aclmdlRITaskType>{
                       ACL_MODEL_RI_TASK_DEFAULT, ACL_MODEL_RI_TASK_EVENT_RECORD,
                       ACL_MODEL_RI_TASK_DEFAULT, ACL_MODEL_RI_TASK_EVENT_WAIT,
                       ACL_MODEL_RI_TASK_VALUE_WRITE}));
  count = 1;
  aclrtStream one = nullptr;
  EXPECT_EQ(aclmdlRIGetStreams(model, &one, &count), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIGetTasksByStream(exec_, nullptr, &count), ACL_ERROR_RT_STREAM_MODEL);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST_F(ModelControlTest, AbortStopsARunThatWouldNeverEnd) {
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRIBuildBegin(&model, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIBindStream(model, head_, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  aclrtLabel loop = nullptr;
  ASSERT_EQ(aclrtCreateLabel(&loop), ACL_SUCCESS);
  aclrtLabelList list = nullptr;
  ASSERT_EQ(aclrtCreateLabelList(&loop, 1, &list), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetLabel(loop, head_), ACL_SUCCESS);
  ASSERT_EQ(Mark(0, head_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSwitchLabelByIndex(Value(0), 1, list, head_), ACL_SUCCESS);  // back, forever
  ASSERT_EQ(aclmdlRIBuildEnd(model, nullptr), ACL_SUCCESS);
  Clear();
  ASSERT_EQ(aclmdlRIExecuteAsync(model, exec_), ACL_SUCCESS);
  // The stream waits for the run, which never ends on its own. (A
  // synchronous copy would wait for it too: npud's wait for every stream.)
  aclrtStreamStatus status = ACL_STREAM_STATUS_COMPLETE;
  ASSERT_EQ(aclrtStreamQuery(exec_, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
  ASSERT_EQ(aclmdlRIAbort(model), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(exec_), ACL_ERROR_RT_MODEL_ABORT_NORMAL);
  // The stream works on.
  ASSERT_EQ(Mark(3, exec_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(exec_), ACL_SUCCESS);
  EXPECT_EQ(Written()[3], '1');
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyLabelList(list), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyLabel(loop), ACL_SUCCESS);
}

}  // namespace
