#include "simdevice/trace_recorder.h"

#include <vector>

#include "gtest/gtest.h"

namespace npud::sim {
namespace {

std::vector<TaskSpan> Spans(int count, int64_t at = 0) {
  std::vector<TaskSpan> spans;
  for (int i = 0; i < count; ++i) {
    spans.push_back(TaskSpan{"task", TaskKind::kCopy, at + i, at + i + 1});
  }
  return spans;
}

TEST(TraceRecorderTest, RecordsNothingUntraced) {
  TraceRecorder recorder;
  EXPECT_FALSE(recorder.active());
  recorder.Add(0, 1, Spans(3));
  const uint64_t cursor = recorder.Start();
  EXPECT_TRUE(recorder.active());
  EXPECT_TRUE(recorder.Stop(cursor).spans.empty());
  EXPECT_FALSE(recorder.active());
}

TEST(TraceRecorderTest, EachTracerGetsTheSpansSinceItsStart) {
  TraceRecorder recorder;
  const uint64_t first = recorder.Start();
  recorder.Add(0, 1, Spans(2));
  const uint64_t second = recorder.Start();
  recorder.Add(1, 7, Spans(3, 100));
  const TraceRecorder::Result early = recorder.Stop(second);
  ASSERT_EQ(early.spans.size(), 3u);
  EXPECT_EQ(early.spans[0].device_id, 1);
  EXPECT_EQ(early.spans[0].stream_id, 7u);
  EXPECT_EQ(early.spans[0].span.start_ns, 100);
  // The first tracer still runs: it sees everything.
  recorder.Add(0, 2, Spans(1, 200));
  const TraceRecorder::Result all = recorder.Stop(first);
  ASSERT_EQ(all.spans.size(), 6u);
  EXPECT_EQ(all.spans.back().span.start_ns, 200);
  EXPECT_EQ(all.dropped, 0u);
  // Nobody traces: nothing is kept, and a new trace starts empty.
  recorder.Add(0, 1, Spans(1));
  const uint64_t later = recorder.Start();
  EXPECT_TRUE(recorder.Stop(later).spans.empty());
}

TEST(TraceRecorderTest, KeepsAtMostTheBoundAndCountsTheRest) {
  TraceRecorder recorder;
  const uint64_t cursor = recorder.Start();
  recorder.Add(0, 1, Spans(static_cast<int>(TraceRecorder::kMaxSpans) + 25));
  const TraceRecorder::Result result = recorder.Stop(cursor);
  EXPECT_EQ(result.spans.size(), TraceRecorder::kMaxSpans);
  EXPECT_EQ(result.dropped, 25u);
  // Once every tracer is gone the memory goes too.
  const uint64_t next = recorder.Start();
  recorder.Add(0, 1, Spans(2));
  const TraceRecorder::Result fresh = recorder.Stop(next);
  EXPECT_EQ(fresh.spans.size(), 2u);
  EXPECT_EQ(fresh.dropped, 0u);
}

TEST(TraceRecorderTest, StopWithoutStartIsEmpty) {
  TraceRecorder recorder;
  EXPECT_TRUE(recorder.Stop(0).spans.empty());
  const uint64_t cursor = recorder.Start();
  recorder.Add(0, 1, Spans(1));
  EXPECT_EQ(recorder.Stop(cursor).spans.size(), 1u);
  EXPECT_FALSE(recorder.active());
}

}  // namespace
}  // namespace npud::sim
