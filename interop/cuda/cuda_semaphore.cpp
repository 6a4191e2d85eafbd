#include "interop/cuda/cuda_semaphore.hpp"

#include <fmt/format.h>

#if !defined(_WIN32)
#include <unistd.h>
#endif

#include <algorithm>
#include <vector>

#include "runtime/error.hpp"

namespace clvf::detail::cuda {

namespace {

const ClSemaphoreApi* fake_api = nullptr;

void cl_check(cl_int err, const char* call) {
  if (err != CL_SUCCESS) throw Error(cl_error_status(err), cl_error_message(call, err));
}

template <typename F>
F lookup(cl_platform_id platform, const char* name) {
  return reinterpret_cast<F>(clGetExtensionFunctionAddressForPlatform(platform, name));
}

// Whether a list of handle types (a device's, or its platform's: drivers fill one or the other)
// names opaque file descriptors.
template <typename Query, typename Object>
bool lists_opaque_fd(Query query, Object object, cl_uint param) {
  size_t bytes = 0;
  if (query(object, param, 0, nullptr, &bytes) != CL_SUCCESS || bytes == 0) return false;
  std::vector<cl_external_semaphore_handle_type_khr> types(bytes / sizeof(cl_external_semaphore_handle_type_khr));
  if (query(object, param, bytes, types.data(), nullptr) != CL_SUCCESS) return false;
  return std::find(types.begin(), types.end(), CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR) != types.end();
}

bool exports_opaque_fd(const cl::Device& device) {
  return lists_opaque_fd(clGetDeviceInfo, device(), CL_DEVICE_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR) ||
         lists_opaque_fd(clGetPlatformInfo, device.getInfo<CL_DEVICE_PLATFORM>(),
                         CL_PLATFORM_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR);
}

}  // namespace

void set_semaphores_for_testing(const ClSemaphoreApi* fake) { fake_api = fake; }

const ClSemaphoreApi* semaphores_of(const cl::Device& device) {
  if (fake_api) return fake_api;
  if (!exports_opaque_fd(device)) return nullptr;
  const cl_platform_id platform = device.getInfo<CL_DEVICE_PLATFORM>();
  // One table per process: a process with two platforms offering semaphores is not one we meet.
  static const ClSemaphoreApi api = {
      lookup<clCreateSemaphoreWithPropertiesKHR_fn>(platform, "clCreateSemaphoreWithPropertiesKHR"),
      lookup<clGetSemaphoreHandleForTypeKHR_fn>(platform, "clGetSemaphoreHandleForTypeKHR"),
      lookup<clEnqueueWaitSemaphoresKHR_fn>(platform, "clEnqueueWaitSemaphoresKHR"),
      lookup<clEnqueueSignalSemaphoresKHR_fn>(platform, "clEnqueueSignalSemaphoresKHR"),
      lookup<clReleaseSemaphoreKHR_fn>(platform, "clReleaseSemaphoreKHR")};
  const bool complete = api.create && api.export_handle && api.enqueue_wait && api.enqueue_signal && api.release;
  return complete ? &api : nullptr;
}

Semaphore::Semaphore(const ClSemaphoreApi& api, const cl::Context& cl_context, const cl::Device& device,
                     CUcontext context)
    : api_(api), context_(context) {
  const cl_semaphore_properties_khr properties[] = {
      CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR,
      CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR,
      CL_SEMAPHORE_EXPORT_HANDLE_TYPES_LIST_END_KHR, 0};
  cl_int err = CL_SUCCESS;
  cl_ = api_.create(cl_context(), properties, &err);
  cl_check(err, "clCreateSemaphoreWithPropertiesKHR (binary, exported as a file descriptor)");
  int fd = -1;
  err = api_.export_handle(cl_, device(), CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, sizeof fd, &fd, nullptr);
  if (err != CL_SUCCESS) {
    api_.release(cl_);
    cl_check(err, "clGetSemaphoreHandleForTypeKHR (opaque file descriptor)");
  }
  CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC desc{};
  desc.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
  desc.handle.fd = fd;
  try {
    ContextScope scope(context_);
    const CUresult r = driver().cuImportExternalSemaphore(&cuda_, &desc);  // takes the descriptor when it succeeds
    if (r != CUDA_SUCCESS) {
#if !defined(_WIN32)
      close(fd);
#endif
      check(r, "cuImportExternalSemaphore (OpenCL's semaphore)");
    }
  } catch (...) {
    api_.release(cl_);
    throw;
  }
}

Semaphore::~Semaphore() {
  try {
    ContextScope scope(context_);
    driver().cuDestroyExternalSemaphore(cuda_);
  } catch (...) {  // a destructor: the driver is gone with the process
  }
  api_.release(cl_);
}

void Semaphore::cuda_before_cl(CUstream stream, const cl::CommandQueue& queue) {
  const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS params{};
  {
    ContextScope scope(context_);
    check(driver().cuSignalExternalSemaphoresAsync(&cuda_, &params, 1, stream), "cuSignalExternalSemaphoresAsync");
  }
  cl_check(api_.enqueue_wait(queue(), 1, &cl_, nullptr, 0, nullptr, nullptr), "clEnqueueWaitSemaphoresKHR");
}

void Semaphore::cl_before_cuda(const cl::CommandQueue& queue, CUstream stream) {
  cl_check(api_.enqueue_signal(queue(), 1, &cl_, nullptr, 0, nullptr, nullptr), "clEnqueueSignalSemaphoresKHR");
  const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS params{};
  ContextScope scope(context_);
  check(driver().cuWaitExternalSemaphoresAsync(&cuda_, &params, 1, stream), "cuWaitExternalSemaphoresAsync");
}

}  // namespace clvf::detail::cuda
