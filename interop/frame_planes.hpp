// How an operation's kernels reach the planes of a frame, whatever the frame's storage:
//   host      system memory, staged through device buffers allocated once at plan time
//             (uploaded before the kernels, downloaded after);
//   buffer    the caller's cl_mem buffers, used in place (offset + pitch);
//   image     the caller's image2d objects, used in place.
// Everything about a frame is checked before anything is enqueued, so a bad frame leaves the
// destination untouched.
#pragma once
#include <vector>

#include "clvf/clvf.h"
#include "runtime/cl.hpp"

namespace clvf {

struct PlaneShape {
  size_t row_bytes = 0;  // bytes of samples in one row
  size_t rows = 0;
};

class FramePlanes {
 public:
  // `which` names the frame in messages ("source", "destination").
  FramePlanes(const cl::Context& context, clvf_storage storage, std::vector<PlaneShape> shapes, const char* which);

  clvf_storage storage() const { return storage_; }
  // Throws Error(INVALID_ARGUMENT) naming the plane and what it lacks.
  void validate(const clvf_frame& frame) const;
  // Kernel arguments for plane i from `index` on: buffer, byte offset, byte pitch (host and
  // buffer storage) or the image alone. Returns the index after them.
  cl_uint set_args(cl::Kernel& kernel, cl_uint index, const clvf_frame& frame, size_t plane) const;
  // Host storage only (no-ops otherwise): non-blocking copies into / out of the staging buffer.
  void upload(const cl::CommandQueue& queue, const clvf_frame& frame, size_t plane) const;
  void download(const cl::CommandQueue& queue, const clvf_frame& frame, size_t plane) const;

 private:
  clvf_storage storage_;
  std::vector<PlaneShape> shapes_;
  std::vector<cl::Buffer> staging_;  // host storage only
  const char* which_;
};

}  // namespace clvf
