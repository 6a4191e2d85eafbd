#include "runtime/ops/frame_run.hpp"

#include <fmt/format.h>

#include "runtime/error.hpp"

namespace clvf::detail {

namespace {
// After an error: nothing enqueued may go on touching the caller's memory once the error
// returns. A finish that itself fails is tried once more (a transient failure must not leave
// work running); past that the queue is taken as dead.
void finish_all(const Device& device) {
  for (const cl::CommandQueue* q :
       {&device.upload_queue(), &device.queue(), &device.side_queue(), &device.download_queue()}) {
    for (int attempt = 0; attempt < 2; ++attempt) {
      try {
        q->finish();
        break;
      } catch (...) {
      }
    }
  }
}

// Step 0 on the device's queue, the others on its side queue after a marker on it, so that a
// GPU runs the planes at once: one plane's work-groups fill the multiprocessors that another's
// last round leaves idle. Neither queue waits for the other after the steps (the side queue's
// next frame waits for this frame's step 0 anyway, through its marker): the next frame's step 0
// starts while this frame's others still run. `planes_done` gets each queue's last kernel.
void enqueue_steps(const Device& device, KernelProfile& profile, size_t steps, FrameSteps enqueue_step, bool side_queue,
                   FrameInFlight& f) {
  const auto& q = device.queue();
  if (!side_queue || steps < 2) {
    for (size_t i = 0; i < steps; ++i) enqueue_step(i, q);
    return;
  }
  const auto& side = device.side_queue();
  f.started.emplace_back();
  q.enqueueMarkerWithWaitList(nullptr, &f.started[0]);
  side.enqueueBarrierWithWaitList(&f.started);
  // A step's commands are all tracked kernels (FrameSteps), so a queue's last one ends its steps
  // (a marker where a queue got none: the second plane of a pair).
  const auto last_on = [&](const cl::CommandQueue& queue) {
    const cl::Event* last = profile.last();
    if (last) f.planes_done.push_back(*last);
    else queue.enqueueMarkerWithWaitList(nullptr, &f.planes_done.emplace_back());
    profile.forget_last();
  };
  enqueue_step(0, q);
  last_on(q);
  for (size_t i = 1; i < steps; ++i) enqueue_step(i, side);
  last_on(side);
  side.flush();
  device.side_queue_used();
}
}  // namespace

FrameInFlight::FrameInFlight() {
  // A frame's lists hold an event per plane (4 at most) and a marker.
  done.reserve(8);
  uploaded.reserve(8);
  computed.reserve(1);
  started.reserve(1);
  planes_done.reserve(2);
}

void submit_frame(const Device& device, KernelProfile& profile, FramePlanes* src_planes, FramePlanes* dst_planes,
                  const clvf_frame& src, const clvf_frame& dst, int slot, size_t steps, FrameSteps enqueue_step,
                  bool side_queue, FrameInFlight& f, const std::vector<cl::Event>* wait) {
  f.dst = dst;
  f.slot = slot;
  // Emptied by destroying the events, never by assigning over them: cl::Event's assignment keeps
  // a handle whose release reported an error, and releases it again later.
  f.done.clear();
  f.uploaded.clear();
  f.computed.clear();
  f.started.clear();
  f.planes_done.clear();
  f.computed.emplace_back();
  const auto& q = device.queue();
  try {
    if (src_planes) src_planes->bind(src, slot);
    if (dst_planes) dst_planes->bind(dst, slot);
    // Staged images are copied on the kernels' queue, after what the caller put there before the
    // frame (an interop acquire) and after `wait` (the caller's commands may write the image).
    const bool on_q = src_planes && src_planes->images_staged();
    for (size_t i = 0; src_planes && i < src_planes->plane_count(); ++i)
      src_planes->upload(on_q ? q : device.upload_queue(), src, i, wait, f.uploaded);
    if (!f.uploaded.empty() && !on_q) q.enqueueBarrierWithWaitList(&f.uploaded);
    if (wait && !wait->empty()) q.enqueueBarrierWithWaitList(wait);
    profile.forget_last();
    enqueue_steps(device, profile, steps, enqueue_step, side_queue, f);
    if (!(dst_planes && dst_planes->staged())) {
      // Maps of host frames used in place move no data: on the kernels' queue they follow the
      // kernels with no marker and no other queue to notify (PoCL: 20 us after a 1080p scale's
      // kernels against 28), and the side queue's last kernel where there is one. Staged images'
      // copies out (CPU devices) likewise.
      for (size_t i = 0; dst_planes && i < dst_planes->plane_count(); ++i)
        dst_planes->download(q, dst, i, f.planes_done, f.done);
      // Where nothing is mapped (OpenCL frames, planes in HostBuffers), the last kernels' events
      // stand for the frame (a marker where there was none: in PoCL's trace a marker ended a
      // median 11 us after the kernel it followed).
      if (f.done.empty()) {
        if (!f.planes_done.empty())
          f.done.insert(f.done.end(), f.planes_done.begin(), f.planes_done.end());
        else if (const cl::Event* last = profile.last())
          f.done.push_back(*last);
        else
          q.enqueueMarkerWithWaitList(nullptr, &f.computed[0]);
      }
    } else {
      // With both queues, the marker that covers them goes on the download queue (the downloads
      // wait for it anyway), so that neither kernel queue waits for the other.
      if (f.planes_done.empty())
        q.enqueueMarkerWithWaitList(nullptr, &f.computed[0]);
      else
        device.download_queue().enqueueMarkerWithWaitList(&f.planes_done, &f.computed[0]);
      for (size_t i = 0; dst_planes && i < dst_planes->plane_count(); ++i)
        dst_planes->download(device.download_queue(), dst, i, f.computed, f.done);
    }
    if (f.done.empty()) f.done.push_back(f.computed[0]);
    // Submitted now, not when someone waits: the copies and kernels start while the caller works.
    device.upload_queue().flush();
    q.flush();
    device.download_queue().flush();
    // The enqueued commands hold the zero-copy wrappers they use.
    if (src_planes) src_planes->unbind();
    if (dst_planes) dst_planes->unbind();
  } catch (...) {
    finish_all(device);
    profile.discard();
    if (src_planes) src_planes->unbind();
    if (dst_planes) dst_planes->unbind();
    throw;
  }
}

void complete_frame(const Device& device, const FrameInFlight& frame, FramePlanes* dst_planes,
                    KernelProfile& profile) {
  try {
    cl::Event::waitForEvents(frame.done);
    if (dst_planes) dst_planes->finish_download(frame.dst, frame.slot);
    profile.collect();
  } catch (...) {
    finish_all(device);
    profile.discard();
    throw;
  }
}

void FramePipeline::submit(const Device& device, KernelProfile& profile, FramePlanes* src_planes,
                           FramePlanes* dst_planes, const clvf_frame& src, const clvf_frame& dst, size_t steps,
                           FrameSteps enqueue_step, const std::vector<cl::Event>* wait) {
  check_room();
  device_ = &device;
  const int slot = static_cast<int>(submitted_ % kDepth);
  submit_frame(device, profile, src_planes, dst_planes, src, dst, slot, steps, enqueue_step, side_queue_,
               ring_[(oldest_ + count_) % kDepth], wait);
  ++count_;
  ++submitted_;
}

void FramePipeline::check_room() const {
  if (count_ >= kDepth)
    throw Error(CLVF_ERROR_INVALID_ARGUMENT,
                fmt::format("{} frames are in flight, the most there can be; complete one first", kDepth));
}

void FramePipeline::run(const Device& device, KernelProfile& profile, FramePlanes* src_planes,
                        FramePlanes* dst_planes, const clvf_frame& src, const clvf_frame& dst, size_t steps,
                        FrameSteps enqueue_step) {
  if (count_) throw Error(CLVF_ERROR_INTERNAL, "a frame run while others are in flight");
  device_ = &device;
  // Slot 0: an operation run one frame at a time has staging for one frame.
  submit_frame(device, profile, src_planes, dst_planes, src, dst, 0, steps, enqueue_step, side_queue_, ring_[oldest_]);
  ++count_;
  complete(dst_planes, profile);
}

cl::Event FramePipeline::enqueue(const Device& device, KernelProfile& profile, FramePlanes* src_planes,
                                 FramePlanes* dst_planes, const clvf_frame& src, const clvf_frame& dst, size_t steps,
                                 FrameSteps enqueue_step, const std::vector<cl::Event>& wait) {
  device_ = &device;
  profile.collect();
  // Slot 0 for every frame: staged images (the only OpenCL frames with staging buffers) wait for
  // the frame before to be done with them.
  const std::vector<cl::Event>* after = &wait;
  if ((src_planes && src_planes->images_staged()) || (dst_planes && dst_planes->images_staged())) {
    enqueue_wait_.clear();  // (destroyed, not assigned over: see submit_frame)
    enqueue_wait_.insert(enqueue_wait_.end(), wait.begin(), wait.end());
    enqueue_wait_.insert(enqueue_wait_.end(), enqueued_.done.begin(), enqueued_.done.end());
    after = &enqueue_wait_;
  }
  submit_frame(device, profile, src_planes, dst_planes, src, dst, 0, steps, enqueue_step, side_queue_, enqueued_,
               after);
  if (enqueued_.done.size() == 1) return enqueued_.done.front();
  cl::Event all;
  device.download_queue().enqueueMarkerWithWaitList(&enqueued_.done, &all);
  return all;
}

void check_enqueue_storages(clvf_storage src, clvf_storage dst, const char* what) {
  auto device_memory = [](clvf_storage s) { return s == CLVF_STORAGE_CL_BUFFER || s == CLVF_STORAGE_CL_IMAGE; };
  if (!device_memory(src) || !device_memory(dst))
    throw Error(CLVF_ERROR_INVALID_ARGUMENT,
                fmt::format("{} takes frames in OpenCL memory (cl buffers or images, as the params' storages "
                            "say); other frames need the host to finish them: use submit and complete",
                            what));
}

FramePipeline::~FramePipeline() {
  // Released with frames in flight: their copies must not outlive the buffers they use.
  if (count_) finish_all(*device_);
}

void FramePipeline::complete(FramePlanes* dst_planes, KernelProfile& profile) {
  if (!count_) throw Error(CLVF_ERROR_INVALID_ARGUMENT, "no frame is in flight: nothing to complete");
  const FrameInFlight& f = ring_[oldest_];
  oldest_ = (oldest_ + 1) % kDepth;
  --count_;
  complete_frame(*device_, f, dst_planes, profile);
}

}  // namespace clvf::detail
