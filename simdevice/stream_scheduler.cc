#include "simdevice/stream_scheduler.h"

#include <utility>

#include "simdevice/stream.h"

namespace npud::sim {

StreamScheduler::StreamScheduler(int workers) {
  if (workers < 1) workers = 1;
  threads_.reserve(workers);
  for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { WorkerLoop(); });
}

StreamScheduler::~StreamScheduler() {
  ready_.Stop();
  for (auto& thread : threads_) thread.join();
}

void StreamScheduler::Enqueue(std::shared_ptr<Stream> stream) { ready_.Put(std::move(stream)); }

void StreamScheduler::WorkerLoop() {
  std::shared_ptr<Stream> stream;
  while (ready_.Take(&stream)) std::exchange(stream, nullptr)->RunSome();
}

}  // namespace npud::sim
