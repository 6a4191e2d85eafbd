#include "runtime/copy_pool.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/settings.hpp"

namespace clvf::detail {
namespace {

// One run_parts call: its parts are claimed by index by the caller and the pool's threads.
// Lives on the caller's stack; every field is under the pool's mutex.
struct Job {
  Job(FunctionRef<void(size_t)> p, size_t n) : part(p), parts(n), left(n) {}
  FunctionRef<void(size_t)> part;
  size_t parts = 0, next = 0, left = 0;  // claimed up to next; not yet finished: left
  std::condition_variable done;
  Job* later = nullptr;  // the pool's list of jobs with parts to claim
};

class Pool {
 public:
  explicit Pool(unsigned threads) {
    for (unsigned i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
  }
  ~Pool() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
  }
  void run(Job& job) {
    std::unique_lock lock(mutex_);
    Job** end = &jobs_;
    while (*end) end = &(*end)->later;
    *end = &job;
    wake_.notify_all();
    while (job.next < job.parts) run_one(lock, job);
    job.done.wait(lock, [&] { return job.left == 0; });
  }

 private:
  // Claims the next part of `job` (which has one), runs it unlocked, and counts it done.
  void run_one(std::unique_lock<std::mutex>& lock, Job& job) {
    const size_t i = job.next++;
    if (job.next == job.parts) {  // nothing left to claim: off the list
      Job** at = &jobs_;
      while (*at != &job) at = &(*at)->later;
      *at = job.later;
    }
    lock.unlock();
    job.part(i);
    lock.lock();
    if (--job.left == 0) job.done.notify_all();
  }
  void work() {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [this] { return stop_ || jobs_; });
      if (!jobs_) return;  // stopping
      run_one(lock, *jobs_);
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_;
  Job* jobs_ = nullptr;
  std::vector<std::thread> workers_;
  bool stop_ = false;
};

Pool& pool() {
  static Pool p(copy_threads() - 1);
  return p;
}

}  // namespace

unsigned copy_threads() {
  static const unsigned n = [] {
    const int given = copy_threads_setting();
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    return given >= 0 ? static_cast<unsigned>(std::clamp(given, 1, 8)) : std::clamp(std::min(4u, hw), 1u, 8u);
  }();
  return n;
}

void run_parts(size_t parts, FunctionRef<void(size_t)> part) {
  if (parts <= 1) {
    if (parts == 1) part(0);
    return;
  }
  Job job(part, parts);
  pool().run(job);
}

}  // namespace clvf::detail
