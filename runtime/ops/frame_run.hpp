// One frame of an operation, the same for all of them: bind the source and destination planes
// (a bad frame fails before anything is enqueued), upload the source planes, enqueue the
// operation's kernels, download the destination planes, wait, collect kernel times. On an error
// nothing enqueued outlives the call.
#pragma once
#include <functional>

#include "interop/frame_planes.hpp"
#include "runtime/device.hpp"
#include "runtime/profile.hpp"

namespace clvf {

// enqueue_step(i), i < steps, sets frame arguments and enqueues kernels (one step per plane, or
// per pass). src_planes or dst_planes may be null (an operation that only reads, or only writes,
// a caller's frame).
void run_frame(const Device& device, KernelProfile& profile, FramePlanes* src_planes, FramePlanes* dst_planes,
               const clvf_frame& src, const clvf_frame& dst, size_t steps,
               const std::function<void(size_t)>& enqueue_step);

}  // namespace clvf
