// CUDA memory that OpenCL can use in place. CUDA's own allocations (cuMemAlloc, which FFmpeg's
// CUDA frame pools use) cannot be exported; memory made with the virtual memory API
// (cuMemCreate with a POSIX file descriptor handle) can, and the OpenCL device on the same GPU
// imports that descriptor once as a buffer (cl_khr_external_memory_opaque_fd). A Share keeps the
// allocations made for one OpenCL context, so that a frame's plane pointer can be looked up and
// used in place.
#pragma once
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "interop/cuda/cuda_driver.hpp"
#include "runtime/cl.hpp"

namespace clvf::cuda {

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
  size_t size() const { return size_; }
  const cl::Buffer& buffer() const { return buffer_; }

 private:
  friend class Share;
  Allocation() = default;
  std::shared_ptr<Share> share_;  // outlives every allocation: buffers outlive a filter
  CUmemGenericAllocationHandle handle_ = 0;
  CUdeviceptr ptr_ = 0;
  size_t size_ = 0;
  bool mapped_ = false;
  cl::Buffer buffer_;
};

class Share : public std::enable_shared_from_this<Share> {
 public:
  // The CUDA context of the frames and the OpenCL context on the same GPU.
  Share(CUcontext context, cl::Context cl_context);
  CUcontext context() const { return context_; }
  // At least `bytes`, rounded up to the driver's granularity.
  std::shared_ptr<Allocation> allocate(size_t bytes);
  // The buffer holding [ptr, ptr + bytes) and ptr's offset in it, when one allocation of this
  // share holds the range.
  std::optional<std::pair<cl::Buffer, size_t>> find(CUdeviceptr ptr, size_t bytes) const;

 private:
  friend class Allocation;
  void forget(CUdeviceptr ptr);

  CUcontext context_;
  cl::Context cl_context_;
  size_t granularity_ = 0;
  mutable std::mutex mutex_;
  std::map<CUdeviceptr, const Allocation*> live_;  // by start address
};

// The UUID of the CUDA context's device, as cuDeviceGetUuid gives it.
std::string device_uuid(CUcontext context);

}  // namespace clvf::cuda
