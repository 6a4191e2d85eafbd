// One frame of an operation, the same for all of them: bind the source and destination planes
// (a bad frame fails before anything is enqueued), then per plane upload, the operation's
// kernels, download; wait; collect kernel times. On an error nothing enqueued outlives the call.
#pragma once
#include <functional>

#include "interop/frame_planes.hpp"
#include "runtime/device.hpp"
#include "runtime/profile.hpp"

namespace clvf {

// enqueue_plane(i) sets plane i's frame arguments and enqueues its kernels. src_planes or
// dst_planes may be null (an operation that only reads, or only writes, a caller's frame).
void run_frame(const Device& device, KernelProfile& profile, FramePlanes* src_planes, FramePlanes* dst_planes,
               const clvf_frame& src, const clvf_frame& dst, size_t plane_count,
               const std::function<void(size_t)>& enqueue_plane);

}  // namespace clvf
