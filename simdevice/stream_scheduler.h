// stream_scheduler.h
//
// StreamScheduler: the worker pool that runs the streams of all devices.
//
// A stream is in the run queue at most once; a worker takes it, runs a
// bounded number of its tasks (Stream::RunSome) and moves on, so a busy
// stream cannot starve the others. Tasks never block a worker (see task.h),
// so a handful of workers serves any number of streams.
//
// Thread-safe. The destructor stops the workers after the queue is empty.
// A stream goes to the worker that went idle last (handoff_queue.h).

#ifndef NPUD_SIMDEVICE_STREAM_SCHEDULER_H_
#define NPUD_SIMDEVICE_STREAM_SCHEDULER_H_

#include <memory>
#include <thread>
#include <vector>

#include "simdevice/handoff_queue.h"

namespace npud::sim {

class Stream;

class StreamScheduler {
 public:
  explicit StreamScheduler(int workers);
  ~StreamScheduler();
  StreamScheduler(const StreamScheduler&) = delete;
  StreamScheduler& operator=(const StreamScheduler&) = delete;

  // Puts a stream in state kQueued into the run queue. Called by Stream.
  void Enqueue(std::shared_ptr<Stream> stream);

  int workers() const { return static_cast<int>(threads_.size()); }

 private:
  void WorkerLoop();

  // Streams to run, each to the worker that went idle last.
  HandOffQueue<std::shared_ptr<Stream>> ready_;

  // Constant after construction.
  std::vector<std::thread> threads_;
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_STREAM_SCHEDULER_H_
