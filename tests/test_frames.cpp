#include "test_frames.hpp"

#include <cstring>

namespace clvf::detail::test {
namespace {
constexpr size_t kPad = 5, kOffset = 16;  // odd pitch padding and a non-zero buffer offset

size_t row_bytes(const RefPlane& p) { return size_t(p.w) * p.channels; }
}  // namespace

std::vector<RefPlane> plane_shapes(clvf_pixel_format format, int w, int h) {
  const int cw = (w + 1) / 2, ch = (h + 1) / 2;
  if (format == CLVF_PIX_NV12) return {{w, h, 1, {}}, {cw, ch, 2, {}}};
  return {{w, h, 1, {}}, {cw, ch, 1, {}}, {cw, ch, 1, {}}};
}

TestFrame::TestFrame(const cl::Context& ctx, const cl::CommandQueue& q, clvf_storage storage,
                     std::vector<RefPlane> shapes, std::vector<cl::ImageFormat> image_formats)
    : ctx_(ctx), q_(q), storage_(storage), shapes_(std::move(shapes)), pad_(shapes_.size(), kPad) {
  frame_.storage = storage;
  for (size_t i = 0; i < shapes_.size(); ++i) {
    const RefPlane& s = shapes_[i];
    // 16-bit samples need even pitches; 8-bit planes get odd ones.
    if (i < image_formats.size() && image_formats[i].image_channel_data_type == CL_UNORM_INT16) pad_[i] = kPad + 1;
    const size_t pitch = row_bytes(s) + pad_[i];
    if (storage == CLVF_STORAGE_HOST) {
      host_.emplace_back(pitch * s.h, sentinel_);
      frame_.planes[i].data = host_.back().data();
      frame_.planes[i].pitch = pitch;
    } else if (storage == CLVF_STORAGE_CL_BUFFER) {
      cl::Buffer b(ctx_, CL_MEM_READ_WRITE, kOffset + pitch * s.h + kPad);
      mems_.push_back(b);
      frame_.planes[i].mem = b();
      frame_.planes[i].offset = kOffset;
      frame_.planes[i].pitch = pitch;
    } else {
      const cl::ImageFormat format =
          i < image_formats.size() ? image_formats[i] : cl::ImageFormat(s.channels == 2 ? CL_RG : CL_R, CL_UNORM_INT8);
      cl::Image2D img(ctx_, CL_MEM_READ_WRITE, format, s.w, s.h);
      mems_.push_back(img);
      frame_.planes[i].mem = img();
    }
  }
}

void TestFrame::fill(const std::vector<RefPlane>& planes) {
  for (size_t i = 0; i < shapes_.size(); ++i) {
    const RefPlane& s = shapes_[i];
    const size_t row = row_bytes(s), pitch = row + pad_[i];
    if (storage_ == CLVF_STORAGE_CL_IMAGE) {
      q_.enqueueWriteImage(cl::Image2D(mems_[i](), true), CL_TRUE, {0, 0, 0}, {size_t(s.w), size_t(s.h), 1}, row, 0,
                           const_cast<uint8_t*>(planes[i].data.data()));
      continue;
    }
    std::vector<uint8_t> bytes((storage_ == CLVF_STORAGE_HOST ? 0 : kOffset) + pitch * s.h + (storage_ == CLVF_STORAGE_HOST ? 0 : kPad), sentinel_);
    uint8_t* base = bytes.data() + (storage_ == CLVF_STORAGE_HOST ? 0 : kOffset);
    for (int y = 0; y < s.h; ++y) std::memcpy(base + y * pitch, planes[i].data.data() + y * row, row);
    if (storage_ == CLVF_STORAGE_HOST)
      host_[i] = bytes, frame_.planes[i].data = host_[i].data();
    else
      q_.enqueueWriteBuffer(cl::Buffer(mems_[i](), true), CL_TRUE, 0, bytes.size(), bytes.data());
  }
}

std::vector<RefPlane> TestFrame::read(bool* padding_intact) {
  *padding_intact = true;
  std::vector<RefPlane> out = shapes_;
  for (size_t i = 0; i < shapes_.size(); ++i) {
    const RefPlane& s = shapes_[i];
    const size_t row = row_bytes(s), pitch = row + pad_[i];
    out[i].data.resize(row * s.h);
    if (storage_ == CLVF_STORAGE_CL_IMAGE) {
      q_.enqueueReadImage(cl::Image2D(mems_[i](), true), CL_TRUE, {0, 0, 0}, {size_t(s.w), size_t(s.h), 1}, row, 0,
                          out[i].data.data());
      continue;
    }
    std::vector<uint8_t> bytes;
    size_t start = 0;
    if (storage_ == CLVF_STORAGE_HOST) {
      bytes = host_[i];
    } else {
      bytes.resize(kOffset + pitch * s.h + kPad);
      q_.enqueueReadBuffer(cl::Buffer(mems_[i](), true), CL_TRUE, 0, bytes.size(), bytes.data());
      start = kOffset;
    }
    for (size_t k = 0; k < bytes.size(); ++k) {
      const bool inside = k >= start && k < start + pitch * s.h && (k - start) % pitch < row;
      if (!inside && bytes[k] != sentinel_) *padding_intact = false;
    }
    for (int y = 0; y < s.h; ++y) std::memcpy(out[i].data.data() + y * row, bytes.data() + start + y * pitch, row);
  }
  return out;
}

}  // namespace clvf::detail::test
