// Kernel times from OpenCL events: an operation records the event of each enqueue under a name
// ("scale_v plane 0"), collects them once its frame is finished, and reports totals.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "runtime/cl.hpp"

namespace clvf::detail {

class KernelProfile {
 public:
  // The event to pass to an enqueue (use it at once: the next call may move it). Not `enabled`:
  // an event that is not timed.
  cl::Event* track(bool enabled, const std::string& name);
  // The event of the latest enqueue tracked since forget_last(), or null: what a frame whose
  // kernels all went to one in-order queue can wait for, with no marker after them.
  const cl::Event* last() const {
    if (!has_last_) return nullptr;
    return last_timed_ ? &pending_.back().second : &untimed_.back();
  }
  void forget_last() { has_last_ = false; }
  // Adds the durations of the recorded events that have completed to the totals (the others wait
  // for a later call).
  void collect();
  // After a failed frame: forgets its events (some may never have run).
  void discard() {
    pending_.clear();
    has_last_ = false;
  }
  // One line per name: runs, mean, median (of the latest kMedianRuns), min and max in ms, share of
  // the total; then the time a frame during which none of the operation's kernels ran, from the
  // first kernel's start to the last's end (the caller's work between frames included). "" when
  // empty.
  std::string report() const;

  // The time covered by kernels' spans (ns), added in order of their starts: `busy` counts time
  // under one span or more once, from `first` to `end`.
  struct Coverage {
    bool any = false;
    cl_ulong first = 0, end = 0, busy = 0;
    void add(cl_ulong start, cl_ulong stop);
  };

 private:
  static constexpr size_t kMedianRuns = size_t(1) << 16;
  // Kernels collected more than kSpanWindow ago start after the others have ended, or overlap
  // them: they are swept into `busy_` (frames in flight reorder a few kernels, never this many).
  static constexpr size_t kSpanWindow = 64;
  struct Totals {
    std::string name;
    size_t count = 0;
    double sum_ms = 0, min_ms = 0, max_ms = 0;
    std::vector<float> recent_ms;  // for the median: a noisy machine moves the mean
  };
  std::vector<std::pair<size_t, cl::Event>> pending_;  // index into totals_
  std::vector<Totals> totals_;
  std::vector<std::pair<cl_ulong, cl_ulong>> spans_;  // the latest kernels' starts and ends, unswept
  Coverage busy_;
  // The latest untimed event, emptied by destroying it (an assignment over a handle whose release
  // reported an error keeps it, to be released again).
  std::vector<cl::Event> untimed_;
  bool has_last_ = false, last_timed_ = false;
};

}  // namespace clvf::detail
