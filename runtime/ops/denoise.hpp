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
#include "runtime/cl.hpp"
#include "runtime/device.hpp"
#include "runtime/profile.hpp"

namespace clvf {

// Throws Error(INVALID_ARGUMENT) naming the bad field and what is allowed.
void validate_denoise_params(const clvf_denoise_params& p);

// Spatial (t = 0): process(src, dst), or send/receive. Temporal (t > 0): send frames in order
// (each is copied into a ring of 2t + 1 frames on the device before send returns), receive the
// output of frame n once frame n + t has been sent, or after send(nullptr) (end of stream: the
// last t outputs use the frames there are). A send after the end starts a new stream.
class Denoise {
 public:
  Denoise(std::shared_ptr<Device> device, const clvf_denoise_params& params);
  void process(const clvf_frame& src, const clvf_frame& dst);
  // For t = 0 the source is used at receive: it must stay valid until then.
  void send(const clvf_frame* src);
  // False when no output is ready yet (dst untouched).
  bool receive(const clvf_frame& dst);
  std::string profile_report() const { return profile_.report(); }

 private:
  struct Plane {
    Kernel kernel;
    Kernel copy;            // temporal: source plane -> ring slot
    cl::Buffer ring;        // temporal: 2t + 1 frames of this plane, tightly packed
    cl::Buffer offsets;     // temporal: the byte offsets of this output's frames in the ring
    int slot_bytes = 0, pitch = 0;
    bool filtered = true;   // else copied (temporal: from the current frame alone)
    cl::NDRange global, local, copy_global, copy_local;
    std::string name, copy_name;  // in kernel-time reports
  };
  void process_spatial(const clvf_frame& src, const clvf_frame& dst);
  void run_temporal(const clvf_frame& dst, int64_t frame);

  std::shared_ptr<Device> device_;
  clvf_denoise_params params_;
  int radius_ = 0;
  std::vector<Plane> planes_;
  std::optional<FramePlanes> src_, dst_;
  FramePipeline pipeline_;  // after the planes it uses
  KernelProfile profile_;
  // Stream state: frames sent and received, end of stream seen, and (t = 0) the frame to filter.
  int64_t sent_ = 0, received_ = 0;
  bool ended_ = false;
  std::optional<clvf_frame> pending_;
  std::vector<std::vector<cl_int>> frame_offsets_;  // per plane, kept until the queue has read them
};

}  // namespace clvf
