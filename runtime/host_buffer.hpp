// System memory for host frames that a device's kernels use where it lies, with no command to
// make their writes visible to the host: fine-grained SVM buffers (clSVMAlloc), on devices that
// share host memory and offer them (PoCL on CPUs). A host plane inside one reaches the kernels as
// an SVM pointer (FramePlanes): no buffer wrapped around it per frame, and no map and unmap after
// the kernels (six commands a yuv420p frame; on PoCL here a 1080p -> 720p spline36 frame took
// 0.45-0.52 ms through the C API against 0.52-0.76 in malloc memory).
#pragma once
#include <cstddef>
#include <string>

#include "runtime/cl.hpp"
#include "runtime/device.hpp"

namespace clvf::detail {

// Empty where `device` can hold host frames in such memory, else what it lacks; Error where the
// device cannot say.
std::string host_buffers_unsupported(const Device& device);

class HostBuffer {
 public:
  // Error(UNSUPPORTED) with host_buffers_unsupported's reason; Error(OUT_OF_MEMORY).
  HostBuffer(const Device& device, size_t bytes);
  // Frees the memory; the context is kept alive until then, so a buffer may outlive its device.
  ~HostBuffer();
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  void* data() const { return data_; }

 private:
  cl::Context context_;
  void* data_ = nullptr;
};

// Whether [p, p + bytes) lies inside one HostBuffer made in `context`.
bool in_host_buffer(const cl::Context& context, const void* p, size_t bytes);

// Sets kernel argument `index` (a global pointer) to `p`, inside a HostBuffer.
void set_host_buffer_arg(cl::Kernel& kernel, cl_uint index, const void* p);

}  // namespace clvf::detail
