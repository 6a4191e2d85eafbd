// How an operation's kernels reach the planes of a frame, whatever the frame's storage:
//   host      system memory: used in place through CL_MEM_USE_HOST_PTR buffers wrapped around
//             the frame's planes where the device shares host memory (zero copy: a map after the
//             kernels makes the results visible), else staged through device buffers allocated
//             once at plan time (uploaded before the kernels, downloaded after);
//   buffer    the caller's cl_mem buffers, used in place (offset + pitch);
//   image     the caller's image2d objects, used in place.
// Everything about a frame is checked before anything is enqueued, so a bad frame leaves the
// destination untouched. One frame at a time: bind, set_args/upload/download, unbind.
#pragma once
#include <vector>

#include "clvf/clvf.h"
#include "runtime/cl.hpp"

namespace clvf {

struct PlaneShape {
  size_t row_bytes = 0;  // bytes of samples in one row
  size_t rows = 0;
  size_t alignment = 1;  // bytes per sample: host addresses, buffer offsets and pitches align to it
};

class FramePlanes {
 public:
  // `which` names the frame in messages ("source", "destination").
  FramePlanes(const cl::Context& context, clvf_storage storage, std::vector<PlaneShape> shapes, const char* which,
              bool zero_copy_host, bool is_output);

  // Validates (Error(INVALID_ARGUMENT) naming the plane and what it lacks), then (zero-copy host
  // storage) wraps the frame's planes for this frame's kernels.
  // Bind the source and the destination before enqueueing anything, so that a bad frame fails
  // first.
  void bind(const clvf_frame& frame);
  // The checks of bind alone (Error(INVALID_ARGUMENT)), for a frame used later.
  void validate(const clvf_frame& frame) const;
  clvf_storage storage() const { return storage_; }
  size_t plane_count() const { return shapes_.size(); }
  // Drops the wrappers (after the queue has finished with them).
  void unbind() { wrapped_.clear(); }
  // Kernel arguments for plane i from `index` on: buffer, byte offset, byte pitch (host and
  // buffer storage) or the image alone. Returns the index after them.
  cl_uint set_args(cl::Kernel& kernel, cl_uint index, const clvf_frame& frame, size_t plane) const;
  // Host storage only (no-ops otherwise): non-blocking copies into / out of the staging buffer,
  // or, zero copy, the map and unmap that make the device's writes visible to the host.
  void upload(const cl::CommandQueue& queue, const clvf_frame& frame, size_t plane) const;
  void download(const cl::CommandQueue& queue, const clvf_frame& frame, size_t plane) const;

 private:
  cl::Context context_;
  clvf_storage storage_;
  std::vector<PlaneShape> shapes_;
  std::vector<cl::Buffer> staging_;  // host storage, copied
  std::vector<cl::Buffer> wrapped_;  // host storage, zero copy: the bound frame's planes
  const char* which_;
  bool zero_copy_ = false, is_output_ = false;
};

}  // namespace clvf
