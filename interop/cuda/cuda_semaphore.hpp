// Ordering between a CUDA stream and an OpenCL queue on the GPU, without the host waiting: a
// binary semaphore that OpenCL makes and exports as a file descriptor
// (cl_khr_external_semaphore_opaque_fd) and CUDA imports (cuImportExternalSemaphore). CUDA
// cannot make one of its own to export, so OpenCL's side must offer the export.
#pragma once
#include <CL/cl_ext.h>

#include "interop/cuda/cuda_driver.hpp"
#include "runtime/cl.hpp"

namespace clvf::detail::cuda {

// cl_khr_semaphore's entry points, as clGetExtensionFunctionAddressForPlatform gives them.
struct ClSemaphoreApi {
  clCreateSemaphoreWithPropertiesKHR_fn create;
  clGetSemaphoreHandleForTypeKHR_fn export_handle;
  clEnqueueWaitSemaphoresKHR_fn enqueue_wait;
  clEnqueueSignalSemaphoresKHR_fn enqueue_signal;
  clReleaseSemaphoreKHR_fn release;
};

// The entry points when `device` can export binary semaphores as file descriptors, else null.
const ClSemaphoreApi* semaphores_of(const cl::Device& device);
// Replaces what semaphores_of answers, for tests (nullptr: ask the device again).
void set_semaphores_for_testing(const ClSemaphoreApi* fake);

class Semaphore {
 public:
  // Made in OpenCL's context, exported once and imported into `context`'s CUDA.
  Semaphore(const ClSemaphoreApi& api, const cl::Context& cl_context, const cl::Device& device, CUcontext context);
  ~Semaphore();
  Semaphore(const Semaphore&) = delete;
  Semaphore& operator=(const Semaphore&) = delete;
  // Commands enqueued on `queue` from now on start after the work submitted to `stream` so far.
  void cuda_before_cl(CUstream stream, const cl::CommandQueue& queue);
  // Work submitted to `stream` from now on starts after the commands enqueued on `queue` so far.
  void cl_before_cuda(const cl::CommandQueue& queue, CUstream stream);

 private:
  const ClSemaphoreApi& api_;
  CUcontext context_;
  cl_semaphore_khr cl_ = nullptr;
  CUexternalSemaphore cuda_ = nullptr;
};

}  // namespace clvf::detail::cuda
