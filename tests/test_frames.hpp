// Frames of every storage kind for tests: filled from reference planes, poisoned, read back.
#pragma once
#include <vector>

#include "clvf/clvf.h"
#include "reference_scale.hpp"
#include "runtime/cl.hpp"

namespace clvf::detail::test {

// Plane geometry of a format: (w, h, channels) for each plane.
std::vector<RefPlane> plane_shapes(clvf_pixel_format format, int w, int h);

class TestFrame {
 public:
  // A plane's `channels` are its bytes per pixel. Images are CL_R or CL_RG of CL_UNORM_INT8 by
  // those bytes, unless image_formats gives each plane's.
  TestFrame(const cl::Context& ctx, const cl::CommandQueue& q, clvf_storage storage, std::vector<RefPlane> shapes,
            std::vector<cl::ImageFormat> image_formats = {});
  // The byte fill writes around the planes (the sentinel read checks); 0x5A unless set.
  void set_padding_byte(uint8_t byte) { sentinel_ = byte; }
  // Writes these planes' samples (also sets the padding around them to the sentinel).
  void fill(const std::vector<RefPlane>& planes);
  // Reads the planes back; reports false in padding_intact if any byte outside a plane changed.
  std::vector<RefPlane> read(bool* padding_intact);
  const clvf_frame& frame() const { return frame_; }

 private:
  cl::Context ctx_;
  cl::CommandQueue q_;
  clvf_storage storage_;
  std::vector<RefPlane> shapes_;
  std::vector<size_t> pad_;  // bytes after each row
  uint8_t sentinel_ = 0x5A;
  std::vector<std::vector<uint8_t>> host_;  // host storage: rows with padding
  std::vector<cl::Memory> mems_;
  clvf_frame frame_{};
};

}  // namespace clvf::detail::test
