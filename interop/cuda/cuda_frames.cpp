#include "interop/cuda/cuda_frames.hpp"

#include <fmt/format.h>

#include <chrono>

#include "runtime/error.hpp"
#include "runtime/ops/frame_format.hpp"

namespace clvf::detail {

namespace {
constexpr size_t kPitchAlign = 512;  // staging rows: what CUDA's pitched allocations use

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

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
    device_->queue().finish();  // before the staging memory goes
  } catch (...) {
  }
}

void CudaFrames::copy(cuda::CUdeviceptr from, size_t from_pitch, cuda::CUdeviceptr to, size_t to_pitch,
                      const PlaneShape& shape, bool on_stream) const {
  cuda::CUDA_MEMCPY2D c{};
  c.srcMemoryType = cuda::CU_MEMORYTYPE_DEVICE;
  c.srcDevice = from;
  c.srcPitch = from_pitch;
  c.dstMemoryType = cuda::CU_MEMORYTYPE_DEVICE;
  c.dstDevice = to;
  c.dstPitch = to_pitch;
  c.WidthInBytes = shape.row_bytes;
  c.Height = shape.rows;
  const cuda::Driver& d = cuda::driver();
  const cuda::CUresult r = on_stream ? d.cuMemcpy2DAsync(&c, device_->cuda()->stream()) : d.cuMemcpy2D(&c);
  if (r != cuda::CUDA_SUCCESS)
    cuda::check(r, fmt::format("{} ({} plane, {} x {} bytes, from {:#x} pitch {} to {:#x} pitch {})",
                               on_stream ? "cuMemcpy2DAsync" : "cuMemcpy2D", which_, shape.row_bytes, shape.rows, from,
                               from_pitch, to, to_pitch)
                       .c_str());
}

cuda::Semaphore& CudaFrames::semaphore() {
  if (!semaphore_) {
    const cuda::Share& share = *device_->cuda();
    semaphore_ = std::make_unique<cuda::Semaphore>(*share.semaphores(), share.cl_context(), share.device(),
                                                   share.context());
  }
  return *semaphore_;
}

void CudaFrames::wait_for_cuda(bool stream_only, const char* why) const {
  const cuda::Driver& d = cuda::driver();
  const cuda::CUresult r = stream_only ? d.cuStreamSynchronize(device_->cuda()->stream()) : d.cuCtxSynchronize();
  if (r != cuda::CUDA_SUCCESS)
    cuda::check(r, fmt::format("{} ({})", stream_only ? "cuStreamSynchronize" : "cuCtxSynchronize", why).c_str());
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
  cuda::Share& share = *device_->cuda();
  cuda::ContextScope scope(share.context());
  const clvf_cuda_sync sync = sync_ = share.sync();
  const bool on_stream = sync != CLVF_CUDA_SYNC_CONTEXT;  // copies go to the caller's stream
  auto start = std::chrono::steady_clock::now();
  if (!output_ && sync == CLVF_CUDA_SYNC_CONTEXT) wait_for_cuda(false, "before the kernels read");
  wait_ms_ += ms_since(start);
  ++frames_;
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
    if (slot_ < 0) slot_ = take_slot();
    const Slot& slot = slots_[slot_];
    out.planes[i].mem = slot.memory->buffer()();
    out.planes[i].offset = staging_offset_[i];
    out.planes[i].pitch = staging_pitch_[i];
    if (output_)
      pending_copy_[i] = true;
    else {
      start = std::chrono::steady_clock::now();
      copy(ptr, p.pitch, slot.memory->pointer() + staging_offset_[i], staging_pitch_[i], shapes_[i], on_stream);
      copy_ms_ += ms_since(start);
    }
    ++copied_;
  }
  // The stream's writes and the copies, done before the kernels read (a device-to-device copy
  // returns before it is done).
  start = std::chrono::steady_clock::now();
  if (!output_ && sync == CLVF_CUDA_SYNC_SEMAPHORES)
    semaphore().cuda_before_cl(share.stream(), device_->queue());
  else if (!output_ && sync == CLVF_CUDA_SYNC_STREAM)
    wait_for_cuda(true, "before the kernels read");
  else if (!output_ && slot_ >= 0)
    wait_for_cuda(false, "after the source copies");
  (sync == CLVF_CUDA_SYNC_CONTEXT ? copy_ms_ : wait_ms_) += ms_since(start);
  pending_ = frame;
  acquired_ = true;
  return out;
}

int CudaFrames::take_slot() {
  if (staging_pitch_.empty()) {
    for (const PlaneShape& s : shapes_) {
      staging_pitch_.push_back((s.row_bytes + kPitchAlign - 1) / kPitchAlign * kPitchAlign);
      staging_offset_.push_back(staging_bytes_);
      staging_bytes_ += staging_pitch_.back() * s.rows;
    }
  }
  // A destination's copy is finished at its release: one slot does. A source's slot is read by
  // kernels that may still run (frames in flight): the slot's last reader must be done first.
  const int n = output_ ? 1 : kSlots;
  const int slot = next_slot_;
  next_slot_ = (next_slot_ + 1) % n;
  Slot& s = slots_[slot];
  if (!s.memory) s.memory = device_->cuda()->allocate(staging_bytes_);
  if (s.done()) s.done.wait();
  return slot;
}

void CudaFrames::release() {
  if (!acquired_) return;
  acquired_ = false;
  const int slot = slot_;
  slot_ = -1;
  if (slot < 0) return;  // in place: the operation's complete (or process) waits for its kernels
  if (!output_) {
    device_->queue().enqueueMarkerWithWaitList(nullptr, &slots_[slot].done);
    return;
  }
  const cuda::Share& share = *device_->cuda();
  const bool semaphores = sync_ == CLVF_CUDA_SYNC_SEMAPHORES, on_stream = sync_ != CLVF_CUDA_SYNC_CONTEXT;
  cuda::ContextScope scope(share.context());
  auto start = std::chrono::steady_clock::now();
  if (semaphores)
    semaphore().cl_before_cuda(device_->queue(), share.stream());
  else
    device_->queue().finish();
  wait_ms_ += ms_since(start);
  start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < shapes_.size(); ++i) {
    if (!pending_copy_[i]) continue;
    pending_copy_[i] = false;
    copy(slots_[slot].memory->pointer() + staging_offset_[i], staging_pitch_[i],
         reinterpret_cast<cuda::CUdeviceptr>(pending_.planes[i].data), pending_.planes[i].pitch, shapes_[i],
         on_stream);
  }
  wait_for_cuda(on_stream, "after the destination copies");  // the frame is handed on complete
  copy_ms_ += ms_since(start);
}

std::string CudaFrames::profile_report() const {
  if (!device_->profiling() || frames_ == 0) return {};
  const double n = static_cast<double>(frames_);
  return fmt::format("CUDA {:<18} {:5} frames  mean {:8.4f} ms ordering with CUDA ({}), {:8.4f} ms copying "
                     "({:.1f} planes copied, {:.1f} used in place per frame)\n",
                     which_, frames_, wait_ms_ / n,
                     sync_ == CLVF_CUDA_SYNC_SEMAPHORES ? "semaphores"
                     : sync_ == CLVF_CUDA_SYNC_STREAM   ? "host waits for the stream"
                                                        : "host waits for the context",
                     copy_ms_ / n,
                     copied_ / n, in_place_ / n);
}

}  // namespace clvf::detail
