#include "runtime/scratch.hpp"

#include <cstdlib>

namespace clvf {

namespace {
// -1 when CLVF_POISON_SCRATCH is unset or not a byte.
int poison_byte() {
  const char* e = std::getenv("CLVF_POISON_SCRATCH");
  if (!e || !*e) return -1;
  char* end = nullptr;
  const long v = std::strtol(e, &end, 0);
  return *end || v < 0 || v > 255 ? -1 : static_cast<int>(v);
}
}  // namespace

cl::Buffer scratch_buffer(const cl::Context& context, const cl::CommandQueue& queue, cl_mem_flags flags,
                          size_t bytes) {
  cl::Buffer buffer(context, flags, bytes);
  if (const int byte = poison_byte(); byte >= 0)
    queue.enqueueFillBuffer(buffer, static_cast<cl_uchar>(byte), 0, bytes);
  return buffer;
}

float float_scratch_fill() {
  const int byte = poison_byte();
  return byte > 0 ? 1e30f / 255.0f * static_cast<float>(byte) : 0.0f;
}

}  // namespace clvf
