// CUDA memory that OpenCL can use in place. CUDA's own allocations (cuMemAlloc, which FFmpeg's
// CUDA frame pools use) cannot be exported; memory made with the virtual memory API
// (cuMemCreate with a POSIX file descriptor handle) can, and the OpenCL device on the same GPU
// imports that descriptor once as a buffer (cl_khr_external_memory_opaque_fd). A Share makes the
// allocations for one OpenCL context and finds the buffer behind a frame's plane pointer, so that
// the plane is used in place: its own allocations directly, and those of another Share on the same
// CUDA context (two filters in a row, each with its own device) through a second import, made
// once per allocation and dropped when the allocation goes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "clvf/clvf.h"
#include "interop/cuda/cuda_driver.hpp"
#include "interop/cuda/cuda_semaphore.hpp"
#include "runtime/cl.hpp"

namespace clvf::detail::cuda {

// Turns a descriptor exported by cuMemExportToShareableHandle into a buffer of `context` of
// `size` bytes; the descriptor is the importer's to close. The real one calls
// clCreateBufferWithProperties; tests install their own.
using Importer = std::function<cl_mem(cl_context context, int fd, size_t size)>;
void set_importer_for_testing(Importer importer);  // empty: the real one
bool importer_is_fake();

class Share;

// One exportable allocation, mapped at pointer() in the CUDA context and imported as buffer().
class Allocation {
 public:
  ~Allocation();
  Allocation(const Allocation&) = delete;
  Allocation& operator=(const Allocation&) = delete;
  CUdeviceptr pointer() const { return ptr_; }
  uint64_t serial() const { return serial_; }  // unique in the process, unlike the address
  size_t size() const { return size_; }
  const cl::Buffer& buffer() const { return buffer_; }

 private:
  friend class Share;
  Allocation() = default;
  std::shared_ptr<Share> share_;  // outlives every allocation: buffers outlive a filter
  uint64_t serial_ = 0;
  CUmemGenericAllocationHandle handle_ = 0;
  CUdeviceptr ptr_ = 0;
  size_t size_ = 0;
  bool mapped_ = false;
  cl::Buffer buffer_;
};

class Share : public std::enable_shared_from_this<Share> {
 public:
  // The CUDA context of the frames and the OpenCL context on the same GPU; `semaphores` when its
  // device can export them (semaphores_of), else null.
  Share(CUcontext context, cl::Context cl_context, cl::Device device, const ClSemaphoreApi* semaphores);
  CUcontext context() const { return context_; }
  const cl::Context& cl_context() const { return cl_context_; }
  const cl::Device& device() const { return device_; }

  // How work on frames is ordered with CUDA's (clvf_device_set_cuda_sync): the stream the
  // caller's CUDA work on them goes to, and AUTO resolved to SEMAPHORES (where usable), STREAM or
  // CONTEXT. Throws when semaphores are asked for and cannot be used; returns the order chosen.
  clvf_cuda_sync set_sync(CUstream stream, clvf_cuda_sync sync);
  CUstream stream() const { return stream_; }
  clvf_cuda_sync sync() const { return sync_; }
  const ClSemaphoreApi* semaphores() const { return semaphores_; }
  bool semaphores_offered() const { return semaphores_ != nullptr; }
  // At least `bytes`, rounded up to the driver's granularity.
  std::shared_ptr<Allocation> allocate(size_t bytes);
  // A buffer of this share's OpenCL context holding [ptr, ptr + bytes) and ptr's offset in it,
  // when one clvf allocation on this CUDA context holds the range.
  std::optional<std::pair<cl::Buffer, size_t>> find(CUdeviceptr ptr, size_t bytes);
  // How many allocations of other shares this one has imported and still holds.
  size_t foreign_imports() const;

 private:
  cl_mem import(CUmemGenericAllocationHandle handle, size_t size) const;

  CUcontext context_;
  cl::Context cl_context_;
  cl::Device device_;
  const ClSemaphoreApi* semaphores_;
  clvf_cuda_sync sync_;
  CUstream stream_ = nullptr;
  std::string semaphore_problem_;  // why none are used, when none are
  size_t granularity_ = 0;
  struct Foreign {
    std::weak_ptr<Allocation> source;
    cl::Buffer buffer;
  };
  mutable std::mutex mutex_;
  std::map<uint64_t, Foreign> foreign_;  // by the source's serial
};

// The UUID of the CUDA context's device, as cuDeviceGetUuid gives it.
std::string device_uuid(CUcontext context);

}  // namespace clvf::detail::cuda
