// The NL-means denoise operation: validated and planned once (programs, kernel arguments), then
// run per frame without allocating. Serves the C API and, through it, the FFmpeg filter.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "clvf/clvf.h"
#include "runtime/frame_planes.hpp"
#include "runtime/ops/frame_run.hpp"
#include "runtime/ops/operation.hpp"
#include "runtime/cl.hpp"
#include "runtime/device.hpp"
#include "runtime/profile.hpp"

namespace clvf::detail {

// Throws Error(INVALID_ARGUMENT) naming the bad field and what is allowed.
void validate_denoise_params(const clvf_denoise_params& p);

// Spatial (t = 0): process(src, dst), or send/receive. Temporal (t > 0): send frames in order
// (each is copied into a ring of 2t + 1 frames on the device before send returns), receive the
// output of frame n once frame n + t has been sent, or after send(nullptr) (end of stream: the
// last t outputs use the frames there are). A send after the end starts a new stream. The same
// stream runs without host waits through submit (Operation); send/receive and submit are not
// mixed in one stream.
class Denoise final : public Operation {
 public:
  Denoise(std::shared_ptr<Device> device, const clvf_denoise_params& params);
  void process(const clvf_frame& src, const clvf_frame& dst);
  // For t = 0 the source is used at receive: it must stay valid until then.
  void send(const clvf_frame* src);
  // False when no output is ready yet (dst untouched).
  bool receive(const clvf_frame& dst);
  bool submit(const clvf_frame* src, const clvf_frame& dst, const std::vector<cl::Event>& wait) override;
  const std::vector<cl::Event>& submitted() const override { return pipeline_.newest_done(); }
  void complete() override;
  std::string profile_report() const override { return profile_.report(); }

 private:
  // Temporal: the byte offsets of an output's frames in the ring (nlmeans.cl's ring_offsets, an
  // argument by value).
  struct RingOffsets {
    static constexpr int kFrames = 2 * CLVF_MAX_TEMPORAL_RADIUS + 1;
    cl_int at[kFrames];
  };
  struct Plane {
    Kernel kernel;
    Kernel copy;            // temporal: source plane -> ring slot
    cl::Buffer ring;        // temporal: 2t + 1 frames of this plane, tightly packed
    int slot_bytes = 0, pitch = 0;
    bool filtered = true;   // else copied (temporal: from the current frame alone)
    cl::NDRange global, local, copy_global, copy_local;
    std::string name, copy_name;  // in kernel-time reports
  };
  void enqueue_spatial(size_t plane, const cl::CommandQueue& q, const clvf_frame& src, const clvf_frame& dst);
  // Stream bookkeeping of a send: whether a frame comes (else the end was taken).
  bool take(const clvf_frame* src);
  // Temporal: Error(INVALID_ARGUMENT) when the ring holds no free slot for the next frame.
  void check_ring_room() const;
  // Temporal: plane i of src into the ring's slot for frame `frame`, on q.
  void enqueue_ring_copy(size_t i, const cl::CommandQueue& q, const clvf_frame& src, int64_t frame);
  // Temporal: the source into the ring's slot for frame sent_, after `wait` (copied_: its event).
  void copy_to_ring(const clvf_frame& src, const std::vector<cl::Event>& wait);
  // Whether an output is ready (`sending`: once the frame being sent is in).
  bool output_ready(bool sending = false) const;
  // Temporal: the output of frame received_ into dst, in flight in the pipeline; with src, frame
  // sent_ (sent now) goes into the ring first.
  void submit_temporal(const clvf_frame& dst, const clvf_frame* src, const std::vector<cl::Event>& wait);

  std::shared_ptr<Device> device_;
  clvf_denoise_params params_;
  int radius_ = 0;
  std::vector<Plane> planes_;
  std::optional<FramePlanes> src_, dst_;
  KernelProfile profile_;
  // Stream state: frames sent and received, end of stream seen, and (t = 0) the frame to filter.
  int64_t sent_ = 0, received_ = 0;
  bool ended_ = false;
  std::optional<clvf_frame> pending_;
  std::vector<cl::Event> copied_;  // the newest ring copy's event (or its frame's)
  // Last: destroyed first, its destructor waits for the frames in flight, which use all the above.
  // Planes at once (a side queue), and frames in flight overlapping: on an H100, 1080p NV12 p=7
  // r=15, cl buffers in flight, 0.641 ms a frame with one queue, 0.595 with the side queue, 0.551
  // with the frames overlapping (the denoise page; the kernels have since gone to 0.476); scale and
  // colour kernels are too short to pay for the queues' syncing.
  FramePipeline pipeline_{true};
};

}  // namespace clvf::detail
