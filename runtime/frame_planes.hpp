// How an operation's kernels reach the planes of a frame, whatever the frame's storage:
//   host      system memory: used in place where the device shares host memory (zero copy): a
//             plane inside a HostBuffer as it is (an SVM pointer), any other through a
//             CL_MEM_USE_HOST_PTR buffer wrapped around it (a map after the kernels makes the
//             results visible); else staged (discrete GPUs): copied into pinned
//             host memory, moved to device buffers by DMA, and back the same way; pinned and
//             device buffers are allocated once at plan time, one set per frame in flight;
//   buffer    the caller's cl_mem buffers, used in place (offset + pitch);
//   image     the caller's image2d objects, used in place; or, where the device stages images
//             (CPU devices: Device::stages_images), copied into a buffer per plane and frame in
//             flight before the kernels, and from one after them: the kernels see buffers.
// Everything about a frame is checked before anything is enqueued, so a bad frame leaves the
// destination untouched. Per frame: bind (into a slot), set_args / upload / download, finish,
// unbind.
#pragma once
#include <atomic>
#include <cstdint>
#include <string_view>
#include <vector>

#include "clvf/clvf.h"
#include "runtime/cl.hpp"
#include "runtime/device.hpp"
#include "runtime/kernel.hpp"

namespace clvf::detail {

struct PlaneShape {
  size_t row_bytes = 0;  // bytes of samples in one row
  size_t rows = 0;
  size_t alignment = 1;  // bytes per sample: host addresses, buffer offsets and pitches align to it
};

// How host planes have reached the kernels in this process, for tests and diagnostics: a device
// sharing host memory must show no staged copy, and its maps of destinations must land on the
// frame's own memory (elsewhere: the driver copied behind the wrapper, logged once).
struct HostTransfers {
  std::atomic<uint64_t> staged_uploads{0}, staged_downloads{0};  // planes copied through staging
  std::atomic<uint64_t> direct_maps{0}, direct_maps_elsewhere{0};  // zero-copy destination maps
  std::atomic<uint64_t> host_buffer_planes{0};  // planes bound inside HostBuffers: nothing wrapped or mapped
  std::atomic<uint64_t> image_copies{0};        // staged images' planes copied in or out
};
HostTransfers& host_transfers();

// The storage an operation's kernels take for frames of `storage` on `device` (its FramePlanes
// pass staged images as buffers).
clvf_storage kernel_storage(const Device& device, clvf_storage storage);

class FramePlanes {
 public:
  // `which` names the frame in messages ("source", "destination"); `slots` frames may be in
  // flight at once (staged host storage keeps a set of buffers per slot, its pinned memory mapped
  // once on the device's queue). Host planes are used in place where the device allows it.
  FramePlanes(const Device& device, clvf_storage storage, std::vector<PlaneShape> shapes, const char* which,
              bool is_output, int slots = 1);
  ~FramePlanes();
  FramePlanes(const FramePlanes&) = delete;
  FramePlanes& operator=(const FramePlanes&) = delete;

  // Validates (Error(INVALID_ARGUMENT) naming the plane and what it lacks), then (zero-copy host
  // storage) wraps the frame's planes for this frame's kernels. The frame uses `slot` until its
  // next bind. Bind the source and the destination before enqueueing anything, so that a bad
  // frame fails first.
  void bind(const clvf_frame& frame, int slot = 0);
  // The checks of bind alone (Error(INVALID_ARGUMENT)), for a frame used later.
  void validate(const clvf_frame& frame) const;
  clvf_storage storage() const { return storage_; }
  size_t plane_count() const { return shapes_.size(); }
  // Host storage on a device without shared memory: copies go through pinned staging.
  bool staged() const { return storage_ == CLVF_STORAGE_HOST && !zero_copy_; }
  // Image storage copied through buffers (kernel_storage: CLVF_STORAGE_CL_BUFFER).
  bool images_staged() const { return images_staged_; }
  // Drops the zero-copy wrappers (after the queue has finished with them).
  void unbind() {
    wrapped_.clear();
    in_place_.clear();
  }
  // Kernel arguments for plane i: `arg` (the buffer) with `arg`_offset and `arg`_pitch in bytes
  // (host and buffer storage), or `arg` alone (the image).
  void set_args(Kernel& kernel, std::string_view arg, const clvf_frame& frame, size_t plane) const;
  // Host storage and staged images (no-ops otherwise). upload: staged host storage, copies the
  // plane into pinned memory and enqueues its DMA to the device buffer; staged images, the copy
  // of the image into the plane's buffer, after `after` (the caller's commands that write it).
  // download: staged host storage, enqueues the DMA back into pinned memory (finish_download
  // then copies it into the frame), zero copy, the map and unmap that make the device's writes
  // visible (none for a plane in a HostBuffer), staged images, the copy into the image. Each
  // appends the event of its last command, if any, to `done`.
  void upload(const cl::CommandQueue& queue, const clvf_frame& frame, size_t plane,
              const std::vector<cl::Event>* after, std::vector<cl::Event>& done);
  void download(const cl::CommandQueue& queue, const clvf_frame& frame, size_t plane,
                const std::vector<cl::Event>& after, std::vector<cl::Event>& done);
  // Staged destinations, once the downloads of the frame in `slot` have completed.
  void finish_download(const clvf_frame& frame, int slot) const;

 private:
  struct Staging {
    cl::Buffer device, pinned;  // (staged images: device alone)
    void* host = nullptr;       // pinned, mapped for the object's life
  };
  // The region of plane i in its image (validated: a whole number of the image's elements a row).
  cl::array<size_t, 3> image_region(size_t plane, const clvf_plane& p) const;
  cl::Context context_;
  cl::CommandQueue queue_;
  clvf_storage storage_;
  std::vector<PlaneShape> shapes_;
  std::vector<std::vector<Staging>> staging_;  // [slot][plane], staged host storage or images
  std::vector<cl::array<size_t, 3>> regions_;  // staged images: the bound frame's planes' regions
  std::vector<cl::Buffer> wrapped_;            // host storage, zero copy: the bound frame's planes
  std::vector<const void*> in_place_;          // ... those inside HostBuffers (their wrapper empty), else null
  const char* which_;
  bool zero_copy_ = false, images_staged_ = false, is_output_ = false;
  int slot_ = 0;
};

}  // namespace clvf::detail
