#include "runtime/copy_pool.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace clvf {
namespace {

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
  void post(std::function<void()> task) {
    {
      std::lock_guard lock(mutex_);
      tasks_.push_back(std::move(task));
    }
    wake_.notify_one();
  }

 private:
  void work() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [this] { return stop_ || !tasks_.empty(); });
        if (tasks_.empty()) return;  // stopping
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
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
    const char* e = std::getenv("CLVF_COPY_THREADS");
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    return std::clamp(e ? static_cast<unsigned>(std::atoi(e)) : std::min(4u, hw), 1u, 8u);
  }();
  return n;
}

void run_parts(size_t parts, const std::function<void(size_t)>& part) {
  if (parts <= 1) {
    if (parts == 1) part(0);
    return;
  }
  std::mutex m;
  std::condition_variable done;
  size_t left = parts - 1;
  for (size_t i = 1; i < parts; ++i)
    pool().post([&, i] {
      part(i);
      std::lock_guard lock(m);
      if (--left == 0) done.notify_one();
    });
  part(0);
  std::unique_lock lock(m);
  done.wait(lock, [&] { return left == 0; });
}

}  // namespace clvf
