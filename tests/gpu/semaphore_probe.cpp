// What the NVIDIA machine's OpenCL offers for ordering with CUDA by semaphores, and whether a
// semaphore OpenCL exports can be imported by CUDA and used both ways. Prints each step's result;
// exit status 0 when the round trip worked. Built by scripts/gpu-bundle.sh; run on the machine.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "interop/cuda/cuda_driver.hpp"

using namespace clvf::detail::cuda;

namespace {

void list(const char* what, cl_int err, const std::vector<cl_uint>& values) {
  std::printf("%-48s", what);
  if (err != CL_SUCCESS) return void(std::printf("error %d\n", err));
  for (cl_uint v : values) std::printf(" %#x", v);
  std::printf(values.empty() ? " (none)\n" : "\n");
}

template <typename Query, typename Object>
void query(const char* what, Query q, Object o, cl_uint param) {
  size_t bytes = 0;
  cl_int err = q(o, param, 0, nullptr, &bytes);
  std::vector<cl_uint> v(bytes / sizeof(cl_uint));
  if (err == CL_SUCCESS && bytes) err = q(o, param, bytes, v.data(), nullptr);
  list(what, err, v);
}

template <typename F>
F sym(void* lib, const char* name) {
  return reinterpret_cast<F>(dlsym(lib, name));
}

}  // namespace

int main() {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  if (clGetPlatformIDs(1, &platform, nullptr) != CL_SUCCESS ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, nullptr) != CL_SUCCESS)
    return std::puts("no OpenCL GPU"), 2;
  char extensions[8192] = {};
  clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS, sizeof extensions - 1, extensions, nullptr);
  std::printf("platform semaphore extensions:");
  for (const char* e : {"cl_khr_semaphore", "cl_khr_external_semaphore", "cl_khr_external_semaphore_opaque_fd",
                        "cl_khr_external_semaphore_sync_fd"})
    if (std::strstr(extensions, e)) std::printf(" %s", e);
  std::printf("\n");
  query("CL_PLATFORM_SEMAPHORE_TYPES_KHR", clGetPlatformInfo, platform, CL_PLATFORM_SEMAPHORE_TYPES_KHR);
  query("CL_PLATFORM_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR", clGetPlatformInfo, platform,
        CL_PLATFORM_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR);
  query("CL_PLATFORM_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR", clGetPlatformInfo, platform,
        CL_PLATFORM_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR);
  query("CL_DEVICE_SEMAPHORE_TYPES_KHR", clGetDeviceInfo, device, CL_DEVICE_SEMAPHORE_TYPES_KHR);
  query("CL_DEVICE_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR", clGetDeviceInfo, device, CL_DEVICE_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR);
  query("CL_DEVICE_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR", clGetDeviceInfo, device, CL_DEVICE_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR);

  auto create = reinterpret_cast<clCreateSemaphoreWithPropertiesKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clCreateSemaphoreWithPropertiesKHR"));
  auto get_handle = reinterpret_cast<clGetSemaphoreHandleForTypeKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clGetSemaphoreHandleForTypeKHR"));
  auto enqueue_wait = reinterpret_cast<clEnqueueWaitSemaphoresKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clEnqueueWaitSemaphoresKHR"));
  auto enqueue_signal = reinterpret_cast<clEnqueueSignalSemaphoresKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clEnqueueSignalSemaphoresKHR"));
  std::printf("entry points: create %s, export %s, wait %s, signal %s\n", create ? "yes" : "no",
              get_handle ? "yes" : "no", enqueue_wait ? "yes" : "no", enqueue_signal ? "yes" : "no");
  if (!create || !get_handle || !enqueue_wait || !enqueue_signal) return 1;
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  const cl_semaphore_properties_khr with_device[] = {
      CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR,
      CL_DEVICE_HANDLE_LIST_KHR, reinterpret_cast<cl_semaphore_properties_khr>(device), CL_DEVICE_HANDLE_LIST_END_KHR,
      CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR,
      CL_SEMAPHORE_EXPORT_HANDLE_TYPES_LIST_END_KHR, 0};
  const cl_semaphore_properties_khr plain[] = {
      CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR,
      CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR,
      CL_SEMAPHORE_EXPORT_HANDLE_TYPES_LIST_END_KHR, 0};
  cl_semaphore_khr sem = nullptr;
  for (const auto* props : {plain, with_device}) {
    sem = create(context, props, &err);
    std::printf("create binary, export opaque fd%s: %d\n", props == plain ? "" : ", device list", err);
    if (sem) break;
  }
  if (!sem) return 1;
  int fd = -1;
  err = get_handle(sem, device, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, sizeof fd, &fd, nullptr);
  std::printf("export opaque fd: %d (fd %d)\n", err, fd);
  if (err != CL_SUCCESS) return 1;

  void* lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib) return std::puts("no libcuda.so.1"), 1;
  sym<CUresult (*)(unsigned)>(lib, "cuInit")(0);
  CUcontext ctx = nullptr;
  std::printf("cuCtxCreate: %d\n", sym<CUresult (*)(CUcontext*, unsigned, CUdevice)>(lib, "cuCtxCreate_v2")(&ctx, 0, 0));
  CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC desc{};
  desc.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
  desc.handle.fd = fd;
  CUexternalSemaphore ext = nullptr;
  CUresult r = sym<decltype(Driver::cuImportExternalSemaphore)>(lib, "cuImportExternalSemaphore")(&ext, &desc);
  std::printf("cuImportExternalSemaphore: %d\n", r);
  if (r != CUDA_SUCCESS) return 1;
  const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp{};
  const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp{};
  auto cu_signal = sym<decltype(Driver::cuSignalExternalSemaphoresAsync)>(lib, "cuSignalExternalSemaphoresAsync");
  auto cu_wait = sym<decltype(Driver::cuWaitExternalSemaphoresAsync)>(lib, "cuWaitExternalSemaphoresAsync");
  auto cu_sync = sym<CUresult (*)(CUstream)>(lib, "cuStreamSynchronize");
  for (int i = 0; i < 3; ++i) {
    r = cu_signal(&ext, &sp, 1, nullptr);
    err = enqueue_wait(queue, 1, &sem, nullptr, 0, nullptr, nullptr);
    const cl_int fin = clFinish(queue);
    std::printf("round %d CUDA->OpenCL: signal %d, wait %d, clFinish %d\n", i, r, err, fin);
    err = enqueue_signal(queue, 1, &sem, nullptr, 0, nullptr, nullptr);
    r = cu_wait(&ext, &wp, 1, nullptr);
    const CUresult s = cu_sync(nullptr);
    std::printf("round %d OpenCL->CUDA: signal %d, wait %d, cuStreamSynchronize %d\n", i, err, r, s);
  }
  std::puts("semaphore round trips done");
  return 0;
}
