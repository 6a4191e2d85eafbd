#include "interop/cuda/cuda_frames.hpp"

#include <fmt/format.h>

#include "runtime/error.hpp"
#include "runtime/ops/frame_format.hpp"

namespace clvf {

namespace {
constexpr size_t kPitchAlign = 512;  // staging rows: what CUDA's pitched allocations use
}

CudaFrames::CudaFrames(std::shared_ptr<Device> device, clvf_pixel_format format, int width, int height,
                       const char* which, bool output)
    : device_(std::move(device)), which_(which), output_(output) {
  if (!device_->cuda())
    throw Error(CLVF_ERROR_INVALID_ARGUMENT,
                fmt::format("{} frames of storage CUDA need a device opened with clvf_device_open_cuda", which));
  // Bad formats and sizes are the operation's to report, once these frames are opened.
  if (find_pixel_format(format) && width > 0 && height > 0) shapes_ = plane_shapes(planes_of(format, width, height));
  pending_copy_.assign(shapes_.size(), false);
}

CudaFrames::~CudaFrames() {
  try {
    release();
  } catch (...) {
  }
}

void CudaFrames::copy(cuda::CUdeviceptr from, size_t from_pitch, cuda::CUdeviceptr to, size_t to_pitch,
                      const PlaneShape& shape) const {
  cuda::CUDA_MEMCPY2D c{};
  c.srcMemoryType = cuda::CU_MEMORYTYPE_DEVICE;
  c.srcDevice = from;
  c.srcPitch = from_pitch;
  c.dstMemoryType = cuda::CU_MEMORYTYPE_DEVICE;
  c.dstDevice = to;
  c.dstPitch = to_pitch;
  c.WidthInBytes = shape.row_bytes;
  c.Height = shape.rows;
  cuda::check(cuda::driver().cuMemcpy2D(&c), "cuMemcpy2D (CUDA frame plane)");
}

clvf_frame CudaFrames::acquire(const clvf_frame& frame) {
  release();
  for (size_t i = 0; i < shapes_.size(); ++i) {
    const clvf_plane& p = frame.planes[i];
    if (!p.data)
      throw Error(CLVF_ERROR_INVALID_ARGUMENT, fmt::format("{} frame: plane {} has no CUDA pointer (data)", which_, i));
    if (p.pitch < shapes_[i].row_bytes)
      throw Error(CLVF_ERROR_INVALID_ARGUMENT,
                  fmt::format("{} frame: plane {} pitch {} is less than its {} bytes per row", which_, i, p.pitch,
                              shapes_[i].row_bytes));
  }
  const cuda::Share& share = *device_->cuda();
  cuda::ContextScope scope(share.context());
  if (!output_) cuda::check(cuda::driver().cuCtxSynchronize(), "cuCtxSynchronize (before the kernels read)");
  clvf_frame out{};
  out.storage = CLVF_STORAGE_CL_BUFFER;
  for (size_t i = 0; i < shapes_.size(); ++i) {
    const clvf_plane& p = frame.planes[i];
    const auto ptr = reinterpret_cast<cuda::CUdeviceptr>(p.data);
    const size_t extent = p.pitch * (shapes_[i].rows - 1) + shapes_[i].row_bytes;
    if (auto found = share.find(ptr, extent)) {
      out.planes[i].mem = (*found).first();
      out.planes[i].offset = (*found).second;
      out.planes[i].pitch = p.pitch;
      ++in_place_;
      continue;
    }
    if (!staging_) {
      size_t total = 0;
      for (const PlaneShape& s : shapes_) {
        staging_pitch_.push_back((s.row_bytes + kPitchAlign - 1) / kPitchAlign * kPitchAlign);
        staging_offset_.push_back(total);
        total += staging_pitch_.back() * s.rows;
      }
      staging_ = device_->cuda()->allocate(total);
    }
    out.planes[i].mem = staging_->buffer()();
    out.planes[i].offset = staging_offset_[i];
    out.planes[i].pitch = staging_pitch_[i];
    if (output_)
      pending_copy_[i] = true;
    else
      copy(ptr, p.pitch, staging_->pointer() + staging_offset_[i], staging_pitch_[i], shapes_[i]);
    ++copied_;
  }
  pending_ = frame;
  acquired_ = true;
  return out;
}

void CudaFrames::release() {
  if (!acquired_) return;
  acquired_ = false;
  device_->queue().finish();
  if (!output_) return;
  cuda::ContextScope scope(device_->cuda()->context());
  for (size_t i = 0; i < shapes_.size(); ++i) {
    if (!pending_copy_[i]) continue;
    pending_copy_[i] = false;
    copy(staging_->pointer() + staging_offset_[i], staging_pitch_[i],
         reinterpret_cast<cuda::CUdeviceptr>(pending_.planes[i].data), pending_.planes[i].pitch, shapes_[i]);
  }
}

}  // namespace clvf
