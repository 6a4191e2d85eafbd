#include "runtime/ops/frame_run.hpp"

namespace clvf {

void run_frame(const Device& device, KernelProfile& profile, FramePlanes& src_planes, FramePlanes& dst_planes,
               const clvf_frame& src, const clvf_frame& dst, size_t plane_count,
               const std::function<void(size_t)>& enqueue_plane) {
  const auto& q = device.queue();
  try {
    src_planes.bind(src);
    dst_planes.bind(dst);
    for (size_t i = 0; i < plane_count; ++i) {
      src_planes.upload(q, src, i);
      enqueue_plane(i);
      dst_planes.download(q, dst, i);
    }
    q.finish();
    profile.collect();
  } catch (...) {
    // Nothing enqueued may touch the caller's memory after the error returns.
    try {
      q.finish();
    } catch (...) {
    }
    profile.discard();
    src_planes.unbind();
    dst_planes.unbind();
    throw;
  }
  src_planes.unbind();
  dst_planes.unbind();
}

}  // namespace clvf
