// Device memory an operation allocates for its own use: a temporal ring, intermediate planes
// between a chain's stages, staging copies of host frames.
#pragma once
#include <cstddef>

#include "runtime/cl.hpp"
#include "runtime/device.hpp"

namespace clvf::detail {

// A buffer of `bytes` in the device's context. With a poison byte in the device's settings
// (CLVF_POISON_SCRATCH=<0 to 255>, a test switch) it starts filled with that byte, on its queue:
// a kernel that reads memory nothing wrote then gives outputs that change with the byte
// (tests/test_unwritten_reads.cpp).
cl::Buffer scratch_buffer(const Device& device, cl_mem_flags flags, size_t bytes);

// What float scratch that kernels may legally read with a zero weight starts with: 0, or with a
// poison byte a finite value that grows with the byte (a NaN would change those legal reads too;
// a large finite one changes only reads of unwritten samples that count).
float float_scratch_fill(const Device& device);

}  // namespace clvf::detail
