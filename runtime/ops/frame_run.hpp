// One frame of an operation, the same for all of them. submit_frame binds the source and
// destination planes (a bad frame fails before anything is enqueued), enqueues the source's
// uploads on the device's upload queue, the operation's kernels on its queue after them, and the
// destination's downloads on the download queue after the kernels (the maps of host frames used
// in place: on its queue), then returns: on a discrete GPU one frame's copies overlap another's
// kernels. complete_frame waits for the frame, copies staged outputs into the caller's planes and
// collects kernel times. On an error nothing enqueued outlives the call.
#pragma once
#include <array>
#include <vector>

#include "runtime/frame_planes.hpp"
#include "runtime/function_ref.hpp"
#include "runtime/device.hpp"
#include "runtime/profile.hpp"

namespace clvf::detail {

// A frame between submit_frame and complete_frame. Its event lists are reserved once and
// reused, so that a frame allocates nothing.
struct FrameInFlight {
  FrameInFlight();
  clvf_frame dst{};
  int slot = 0;
  std::vector<cl::Event> done;      // the frame's last commands
  std::vector<cl::Event> uploaded;  // its uploads
  std::vector<cl::Event> computed;  // the marker after its kernels
  std::vector<cl::Event> started;      // the marker the side queue's steps wait for
  std::vector<cl::Event> planes_done;  // markers after the steps on each queue
};

// A step enqueues its commands on the queue it is given, each kernel with the event
// KernelProfile::track gives it: the last one's event is the frame's completion where nothing
// follows the kernels (OpenCL frames, host buffers).
using FrameSteps = FunctionRef<void(size_t, const cl::CommandQueue&)>;

// Fills `f`: enqueue_step(i, queue), i < steps, sets frame arguments and enqueues kernels (one
// step per plane, or per pass) on device.queue(); with `side_queue`, steps after the first go to
// device.side_queue() instead (steps then must not depend on each other's commands), which starts
// after what queue() held before them. queue() does not wait for the side queue: the frame's
// events (`done`, and the downloads' wait) cover both, and what follows queue() alone (an interop
// release) must come after device.join_side_queue(). src_planes or dst_planes may be null (an
// operation that only reads, or only writes, a caller's frame). `slot` picks the staging buffers
// (0 .. slots - 1 of the FramePlanes): one per frame in flight.
// `wait`: events the frame's kernels start after (the caller's own commands).
void submit_frame(const Device& device, KernelProfile& profile, FramePlanes* src_planes, FramePlanes* dst_planes,
                  const clvf_frame& src, const clvf_frame& dst, int slot, size_t steps, FrameSteps enqueue_step,
                  bool side_queue, FrameInFlight& f, const std::vector<cl::Event>* wait = nullptr);
void complete_frame(const Device& device, const FrameInFlight& frame, FramePlanes* dst_planes,
                    KernelProfile& profile);

// Error(INVALID_ARGUMENT) unless both storages are OpenCL memory (what `enqueue` takes).
void check_enqueue_storages(clvf_storage src, clvf_storage dst, const char* what);

// An operation's frames in flight, oldest first: at most kDepth (the staging slots they use).
// Declare it after the FramePlanes it uses: its destructor waits for the frames still in flight.
class FramePipeline {
 public:
  static constexpr int kDepth = CLVF_MAX_IN_FLIGHT;
  // side_queue: the steps are independent, and long enough that running them at once pays for
  // the two queues' synchronisation (see submit_frame).
  explicit FramePipeline(bool side_queue = false) : side_queue_(side_queue) {}
  // The same, decided once the steps are known (before the first frame).
  void set_side_queue(bool side_queue) { side_queue_ = side_queue; }
  ~FramePipeline();
  FramePipeline(const FramePipeline&) = delete;
  FramePipeline& operator=(const FramePipeline&) = delete;
  // Error(INVALID_ARGUMENT) when kDepth frames are in flight. The frame's kernels start after
  // `wait` (when given).
  void submit(const Device& device, KernelProfile& profile, FramePlanes* src_planes, FramePlanes* dst_planes,
              const clvf_frame& src, const clvf_frame& dst, size_t steps, FrameSteps enqueue_step,
              const std::vector<cl::Event>* wait = nullptr);
  // The last commands of the newest frame submitted (valid until it completes).
  const std::vector<cl::Event>& newest_done() const { return ring_[(oldest_ + count_ + kDepth - 1) % kDepth].done; }
  // Error(INVALID_ARGUMENT) when kDepth frames are in flight (what submit checks first).
  void check_room() const;
  // Completes the oldest frame; Error(INVALID_ARGUMENT) when there is none.
  void complete(FramePlanes* dst_planes, KernelProfile& profile);
  // Both, in staging slot 0: the frame is complete when it returns (for operations used one
  // frame at a time, with staging for one frame).
  void run(const Device& device, KernelProfile& profile, FramePlanes* src_planes, FramePlanes* dst_planes,
           const clvf_frame& src, const clvf_frame& dst, size_t steps, FrameSteps enqueue_step);
  // A frame of OpenCL memory (nothing for the host to finish) whose kernels start after `wait`,
  // not kept in flight: the event of its last command is returned for the caller to wait on or
  // to order its own commands after. Kernel times are collected as later frames find them done.
  cl::Event enqueue(const Device& device, KernelProfile& profile, FramePlanes* src_planes, FramePlanes* dst_planes,
                    const clvf_frame& src, const clvf_frame& dst, size_t steps, FrameSteps enqueue_step,
                    const std::vector<cl::Event>& wait);

 private:
  std::array<FrameInFlight, kDepth> ring_;  // in flight: count_ from oldest_, circularly
  int oldest_ = 0, count_ = 0;
  FrameInFlight enqueued_;  // for enqueue, whose frames are not kept
  std::vector<cl::Event> enqueue_wait_;  // an enqueued frame's wait, and the frame before's end
  int64_t submitted_ = 0;
  const Device* device_ = nullptr;
  bool side_queue_ = false;
};

}  // namespace clvf::detail
