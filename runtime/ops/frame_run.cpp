#include "runtime/ops/frame_run.hpp"

namespace clvf {

void run_frame(const Device& device, KernelProfile& profile, FramePlanes* src_planes, FramePlanes* dst_planes,
               const clvf_frame& src, const clvf_frame& dst, size_t steps,
               const std::function<void(size_t)>& enqueue_step) {
  const auto& q = device.queue();
  const auto unbind = [&] {
    if (src_planes) src_planes->unbind();
    if (dst_planes) dst_planes->unbind();
  };
  try {
    if (src_planes) src_planes->bind(src);
    if (dst_planes) dst_planes->bind(dst);
    for (size_t i = 0; src_planes && i < src_planes->plane_count(); ++i) src_planes->upload(q, src, i);
    for (size_t i = 0; i < steps; ++i) enqueue_step(i);
    for (size_t i = 0; dst_planes && i < dst_planes->plane_count(); ++i) dst_planes->download(q, dst, i);
    q.finish();
    profile.collect();
  } catch (...) {
    // Nothing enqueued may touch the caller's memory after the error returns.
    try {
      q.finish();
    } catch (...) {
    }
    profile.discard();
    unbind();
    throw;
  }
  unbind();
}

}  // namespace clvf
