// Frames the operations reach through another API's sharing: Direct3D surfaces (d3d_frames.hpp)
// and CUDA memory (cuda/cuda_frames.hpp). Each side of an operation whose storage is one of these
// turns the caller's frame into an OpenCL one (CL_IMAGE or CL_BUFFER) for the operation's kernels
// at acquire, and hands it back at release.
#pragma once
#include <memory>
#include <string>

#include "clvf/clvf.h"
#include "runtime/device.hpp"

namespace clvf::detail {

class SharedFrames {
 public:
  virtual ~SharedFrames() = default;
  // The OpenCL storage the operation is created for.
  virtual clvf_storage inner_storage() const = 0;
  // The frame of inner_storage() for `frame`, ready for the operation's kernels on the device's
  // queue.
  virtual clvf_frame acquire(const clvf_frame& frame) = 0;
  // Gives back what acquire took, after the work already on the device's queue.
  virtual void release() = 0;
  // Lines on the sharing's own cost per frame, for the operation's profile ("" when none).
  virtual std::string profile_report() const { return {}; }
};

// One side of an operation: its storage, and (for the frame size) its format, width and height.
struct SideSpec {
  clvf_storage& storage;
  clvf_pixel_format format;
  int width, height;
};

// The sides of an operation whose source or destination is shared (the C API's).
struct FrameSides {
  std::unique_ptr<SharedFrames> src, dst;
  std::shared_ptr<Device> device;  // whose queue the releases follow (set by open)

  // Opens the sides whose storage is shared and rewrites their storage to the OpenCL one the
  // operation is then created for.
  void open(const std::shared_ptr<Device>& device, SideSpec source, SideSpec destination);
  // body(src, dst) with the shared frames acquired (either may be null); both are released after
  // it, behind the work it enqueued, except the source with keep_src (an operation that reads it
  // later: denoise's send, read at receive), which stays acquired until release_src or the next.
  template <typename Body>
  void run(const clvf_frame* s, const clvf_frame* d, Body&& body, bool keep_src = false) {
    clvf_frame si{}, di{};
    try {
      if (s && src) s = &(si = src->acquire(*s));
      if (d && dst) d = &(di = dst->acquire(*d));
      body(s, d);
    } catch (...) {
      release_quietly();
      throw;
    }
    if (src && !keep_src) join(), src->release();
    if (dst) join(), dst->release();
  }
  void release_src() {
    if (src) join(), src->release();
  }
  std::string profile_report() const {
    return (src ? src->profile_report() : std::string()) + (dst ? dst->profile_report() : std::string());
  }

 private:
  // Releases follow the device's queue alone: it must first cover the side queue's work.
  void join() const {
    if (device) device->join_side_queue();
  }
  void release_quietly();
};

}  // namespace clvf::detail
