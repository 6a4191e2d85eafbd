#include "runtime/scratch.hpp"

namespace clvf::detail {

cl::Buffer scratch_buffer(const Device& device, cl_mem_flags flags, size_t bytes) {
  cl::Buffer buffer(device.context(), flags, bytes);
  if (const int byte = device.settings().poison; byte >= 0)
    device.queue().enqueueFillBuffer(buffer, static_cast<cl_uchar>(byte), 0, bytes);
  return buffer;
}

float float_scratch_fill(const Device& device) {
  const int byte = device.settings().poison;
  return byte > 0 ? 1e30f / 255.0f * static_cast<float>(byte) : 0.0f;
}

}  // namespace clvf::detail
