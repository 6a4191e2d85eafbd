#include "runtime/profile.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace clvf::detail {

cl::Event* KernelProfile::track(bool enabled, const std::string& name) {
  has_last_ = true;
  last_timed_ = enabled;
  if (!enabled) {
    untimed_.clear();
    return &untimed_.emplace_back();
  }
  auto it = std::find_if(totals_.begin(), totals_.end(), [&](const Totals& t) { return t.name == name; });
  if (it == totals_.end()) {
    it = totals_.emplace(totals_.end());
    it->name = name;
  }
  pending_.emplace_back(static_cast<size_t>(it - totals_.begin()), cl::Event());
  return &pending_.back().second;
}

void KernelProfile::collect() {
  // Frames still in flight keep their events for a later call.
  const auto done = std::stable_partition(pending_.begin(), pending_.end(), [](const auto& p) {
    return p.second.template getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() == CL_COMPLETE;
  });
  for (auto it = pending_.begin(); it != done; ++it) {
    auto& [index, event] = *it;
    const cl_ulong start = event.getProfilingInfo<CL_PROFILING_COMMAND_START>(),
                   end = event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
    const double ms = (end - start) * 1e-6;
    spans_.emplace_back(start, end);
    Totals& t = totals_[index];
    t.runs_ms.push_back(static_cast<float>(ms));
    t.min_ms = t.count ? std::min(t.min_ms, ms) : ms;
    t.max_ms = t.count ? std::max(t.max_ms, ms) : ms;
    t.sum_ms += ms;
    ++t.count;
  }
  pending_.erase(pending_.begin(), done);
}

namespace {
double median(std::vector<float> v) {
  if (v.empty()) return 0;
  const auto mid = v.begin() + static_cast<long>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}
}  // namespace

std::string KernelProfile::report() const {
  double all = 0;
  size_t frames = 0;
  for (const Totals& t : totals_) all += t.sum_ms, frames = std::max(frames, t.count);
  std::string out;
  for (const Totals& t : totals_) {
    if (!t.count) continue;
    out += fmt::format("{:<20} {:>7} runs  mean {:8.4f} ms  median {:8.4f}  min {:8.4f}  max {:8.4f}  {:5.1f}%\n", t.name,
                       t.count, t.sum_ms / t.count, median(t.runs_ms), t.min_ms, t.max_ms,
                       all > 0 ? 100 * t.sum_ms / all : 0.0);
  }
  if (spans_.empty()) return out;
  // Busy: the union of the kernels' spans (kernels of two queues overlap); idle: the rest of the
  // time from the first start to the last end.
  auto spans = spans_;
  std::sort(spans.begin(), spans.end());
  cl_ulong busy = 0, run_start = spans[0].first, run_end = spans[0].second, last = 0;
  for (const auto& [start, end] : spans) {
    if (start > run_end) busy += run_end - run_start, run_start = start;
    run_end = std::max(run_end, end);
    last = std::max(last, end);
  }
  busy += run_end - run_start;
  const double span_ms = (last - spans[0].first) * 1e-6, idle_ms = span_ms - busy * 1e-6;
  out += fmt::format("{:<20} {:>7} frames  {:8.4f} ms a frame between kernels ({:.1f}% of {:.4f} ms)\n", "device idle", frames, idle_ms / frames, span_ms > 0 ? 100 * idle_ms / span_ms : 0.0, span_ms);
  return out;
}

}  // namespace clvf::detail
