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
    if (t.recent_ms.size() < kMedianRuns)
      t.recent_ms.push_back(static_cast<float>(ms));
    else
      t.recent_ms[t.count % kMedianRuns] = static_cast<float>(ms);
    t.min_ms = t.count ? std::min(t.min_ms, ms) : ms;
    t.max_ms = t.count ? std::max(t.max_ms, ms) : ms;
    t.sum_ms += ms;
    ++t.count;
  }
  pending_.erase(pending_.begin(), done);
  if (spans_.size() >= 2 * kSpanWindow) {
    std::sort(spans_.begin(), spans_.end());
    for (size_t i = 0; i < kSpanWindow; ++i) busy_.add(spans_[i].first, spans_[i].second);
    spans_.erase(spans_.begin(), spans_.begin() + kSpanWindow);
  }
}

void KernelProfile::Coverage::add(cl_ulong start, cl_ulong stop) {
  if (!any) {
    any = true;
    first = start, end = stop, busy = stop - start;
  } else if (start >= end) {
    busy += stop - start, end = stop;
  } else if (stop > end) {
    busy += stop - end, end = stop;
  }
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
                       t.count, t.sum_ms / t.count, median(t.recent_ms), t.min_ms, t.max_ms,
                       all > 0 ? 100 * t.sum_ms / all : 0.0);
  }
  Coverage all_kernels = busy_;
  auto spans = spans_;
  std::sort(spans.begin(), spans.end());
  for (const auto& [start, stop] : spans) all_kernels.add(start, stop);
  if (!all_kernels.any) return out;
  const double span_ms = (all_kernels.end - all_kernels.first) * 1e-6;
  const double idle_ms = span_ms - all_kernels.busy * 1e-6;
  out += fmt::format("{:<20} {:>7} frames  {:8.4f} ms a frame between kernels ({:.1f}% of {:.4f} ms)\n", "device idle",
                     frames, idle_ms / frames, span_ms > 0 ? 100 * idle_ms / span_ms : 0.0, span_ms);
  return out;
}

}  // namespace clvf::detail
