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
  if (it == totals_.end()) it = totals_.insert(totals_.end(), Totals{name});
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
    const double ms =
        (event.getProfilingInfo<CL_PROFILING_COMMAND_END>() - event.getProfilingInfo<CL_PROFILING_COMMAND_START>()) * 1e-6;
    Totals& t = totals_[index];
    t.min_ms = t.count ? std::min(t.min_ms, ms) : ms;
    t.max_ms = t.count ? std::max(t.max_ms, ms) : ms;
    t.sum_ms += ms;
    ++t.count;
  }
  pending_.erase(pending_.begin(), done);
}

std::string KernelProfile::report() const {
  double all = 0;
  for (const Totals& t : totals_) all += t.sum_ms;
  std::string out;
  for (const Totals& t : totals_) {
    if (!t.count) continue;
    out += fmt::format("{:<20} {:>7} runs  mean {:8.4f} ms  min {:8.4f}  max {:8.4f}  {:5.1f}%\n", t.name, t.count,
                       t.sum_ms / t.count, t.min_ms, t.max_ms, all > 0 ? 100 * t.sum_ms / all : 0.0);
  }
  return out;
}

}  // namespace clvf::detail
