// Frames of an operation whose storage is CLVF_STORAGE_CUDA: planes[i].data holds a CUDA device
// pointer (CUdeviceptr) and planes[i].pitch its bytes per row, in the CUDA context the device was
// opened for (clvf_device_open_cuda). The operation sees CL_BUFFER storage:
//   - a plane inside memory clvf allocated (clvf_cuda_buffer_alloc: the filters' frame pools) is
//     used in place, through the buffer OpenCL imported when it was allocated;
//   - any other plane (a decoder's pool: cuMemAlloc memory, which cannot be exported) is copied
//     on the GPU into exportable memory made once: before the kernels for a source, after them
//     for a destination.
// Ordering (clvf_device_set_cuda_sync), for what the kernels read: the copies go to the caller's
// stream, and the queue waits on the GPU for that stream (semaphores), or the host waits for it
// (STREAM); with CONTEXT the host waits for the context (cuCtxSynchronize) before the kernels read
// and again after the copies (a device-to-device copy returns before it is done). A destination
// used in place is the caller's once the operation completes (as with OpenCL frames); one written
// through a copy is copied at release, after the kernels (behind a semaphore the queue signals,
// or after clFinish); the host then waits for the copies.
// Sources are copied into one of CLVF_MAX_IN_FLIGHT slots, each reused once the kernels that read
// it are done (an event), so frames in flight overlap. No pixel passes through the host.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "interop/cuda/cuda_share.hpp"
#include "runtime/frame_planes.hpp"
#include "interop/shared_frames.hpp"

namespace clvf::detail {

class CudaFrames : public SharedFrames {
 public:
  CudaFrames(std::shared_ptr<Device> device, clvf_pixel_format format, int width, int height, const char* which,
             bool output);
  ~CudaFrames() override;
  clvf_storage inner_storage() const override { return CLVF_STORAGE_CL_BUFFER; }
  clvf_frame acquire(const clvf_frame& frame) override;
  void release() override;
  // With profiling on (the device records kernel times): the wait for CUDA's pending work and the
  // plane copies, per frame.
  std::string profile_report() const override;

 private:
  void copy(const cuda::CUdeviceptr from, size_t from_pitch, cuda::CUdeviceptr to, size_t to_pitch,
            const PlaneShape& shape, bool on_stream) const;
  // The frames' semaphore, made at the first frame that orders through one.
  cuda::Semaphore& semaphore();
  // The host waits for CUDA: the whole context, or the caller's stream.
  void wait_for_cuda(bool stream_only, const char* why) const;

  std::shared_ptr<Device> device_;
  const char* which_;
  bool output_;
  std::vector<PlaneShape> shapes_;
  static constexpr int kSlots = CLVF_MAX_IN_FLIGHT;
  struct Slot {
    std::shared_ptr<cuda::Allocation> memory;  // made at the first frame that needs it
    cl::Event done;                            // its last reader's kernels
  };
  int take_slot();

  Slot slots_[kSlots];
  int next_slot_ = 0, slot_ = -1;  // slot_: the acquired frame's, or -1
  std::vector<size_t> staging_offset_, staging_pitch_;  // the planes' place in a slot
  size_t staging_bytes_ = 0;
  clvf_frame pending_{};                       // destination planes to copy into at release
  std::vector<bool> pending_copy_;
  std::unique_ptr<cuda::Semaphore> semaphore_;
  bool acquired_ = false;
  size_t in_place_ = 0, copied_ = 0;
  size_t frames_ = 0;
  double wait_ms_ = 0, copy_ms_ = 0;
  clvf_cuda_sync sync_ = CLVF_CUDA_SYNC_AUTO;  // the acquired frame's order
};

}  // namespace clvf::detail
