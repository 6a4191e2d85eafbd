#include "runtime/ops/frame_run.hpp"

#include <fmt/format.h>

#include "runtime/error.hpp"

namespace clvf {

namespace {
// After an error: nothing enqueued may go on touching the caller's memory once the error
// returns. A finish that itself fails is tried once more (a transient failure must not leave
// work running); past that the queue is taken as dead.
void finish_all(const Device& device) {
  for (const cl::CommandQueue* q : {&device.upload_queue(), &device.queue(), &device.download_queue()}) {
    for (int attempt = 0; attempt < 2; ++attempt) {
      try {
        q->finish();
        break;
      } catch (...) {
      }
    }
  }
}
}  // namespace

FrameInFlight submit_frame(const Device& device, KernelProfile& profile, FramePlanes* src_planes,
                           FramePlanes* dst_planes, const clvf_frame& src, const clvf_frame& dst, int slot,
                           size_t steps, const std::function<void(size_t)>& enqueue_step,
                           const std::vector<cl::Event>* wait) {
  FrameInFlight f{dst, slot, {}};
  const auto& q = device.queue();
  try {
    if (src_planes) src_planes->bind(src, slot);
    if (dst_planes) dst_planes->bind(dst, slot);
    std::vector<cl::Event> uploaded;
    for (size_t i = 0; src_planes && i < src_planes->plane_count(); ++i)
      src_planes->upload(device.upload_queue(), src, i, uploaded);
    if (!uploaded.empty()) q.enqueueBarrierWithWaitList(&uploaded);
    if (wait && !wait->empty()) q.enqueueBarrierWithWaitList(wait);
    for (size_t i = 0; i < steps; ++i) enqueue_step(i);
    std::vector<cl::Event> computed(1);
    q.enqueueMarkerWithWaitList(nullptr, &computed[0]);
    for (size_t i = 0; dst_planes && i < dst_planes->plane_count(); ++i)
      dst_planes->download(device.download_queue(), dst, i, computed, f.done);
    if (f.done.empty()) f.done = computed;
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
  return f;
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

void run_frame(const Device& device, KernelProfile& profile, FramePlanes* src_planes, FramePlanes* dst_planes,
               const clvf_frame& src, const clvf_frame& dst, size_t steps,
               const std::function<void(size_t)>& enqueue_step) {
  complete_frame(device, submit_frame(device, profile, src_planes, dst_planes, src, dst, 0, steps, enqueue_step),
                 dst_planes, profile);
}

void FramePipeline::submit(const Device& device, KernelProfile& profile, FramePlanes* src_planes,
                           FramePlanes* dst_planes, const clvf_frame& src, const clvf_frame& dst, size_t steps,
                           const std::function<void(size_t)>& enqueue_step) {
  if (frames_.size() >= kDepth)
    throw Error(CLVF_ERROR_INVALID_ARGUMENT,
                fmt::format("{} frames are in flight, the most there can be; complete one first", kDepth));
  device_ = &device;
  const int slot = static_cast<int>(submitted_ % kDepth);
  // Room for the frame first: an allocation failing after its commands were enqueued would leave
  // them running, untracked, on frames the caller then frees.
  frames_.emplace_back();
  try {
    frames_.back() = submit_frame(device, profile, src_planes, dst_planes, src, dst, slot, steps, enqueue_step);
  } catch (...) {
    frames_.pop_back();
    throw;
  }
  ++submitted_;
}

cl::Event FramePipeline::enqueue(const Device& device, KernelProfile& profile, FramePlanes* src_planes,
                                 FramePlanes* dst_planes, const clvf_frame& src, const clvf_frame& dst, size_t steps,
                                 const std::function<void(size_t)>& enqueue_step,
                                 const std::vector<cl::Event>& wait) {
  device_ = &device;
  profile.collect();
  // Slot 0: OpenCL frames use no staging buffers.
  FrameInFlight f = submit_frame(device, profile, src_planes, dst_planes, src, dst, 0, steps, enqueue_step, &wait);
  if (f.done.size() == 1) return f.done.front();
  cl::Event all;
  device.download_queue().enqueueMarkerWithWaitList(&f.done, &all);
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
  if (!frames_.empty()) finish_all(*device_);
}

void FramePipeline::complete(FramePlanes* dst_planes, KernelProfile& profile) {
  if (frames_.empty()) throw Error(CLVF_ERROR_INVALID_ARGUMENT, "no frame is in flight: nothing to complete");
  const FrameInFlight f = std::move(frames_.front());
  frames_.pop_front();
  complete_frame(*device_, f, dst_planes, profile);
}

}  // namespace clvf
