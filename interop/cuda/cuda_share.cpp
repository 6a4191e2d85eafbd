#include "interop/cuda/cuda_share.hpp"

#include <fmt/format.h>

#if !defined(_WIN32)
#include <dlfcn.h>
#include <unistd.h>
#endif

#include "runtime/error.hpp"

namespace clvf::cuda {

namespace {

constexpr cl_uint kExternalMemoryOpaqueFd = 0x2060;  // CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR

// clCreateBufferWithProperties is OpenCL 3.0; the library targets 1.2 headers, so it is looked up.
using CreateBufferWithProperties = cl_mem (*)(cl_context, const cl_ulong*, cl_mem_flags, size_t, void*, cl_int*);

cl_mem import_opaque_fd(cl_context context, int fd, size_t size) {
#if !defined(_WIN32)
  // The ICD loader's own entry point (ocl-icd and the Khronos loader export the 3.0 functions).
  static const auto fn = reinterpret_cast<CreateBufferWithProperties>(dlsym(RTLD_DEFAULT, "clCreateBufferWithProperties"));
#else
  const CreateBufferWithProperties fn = nullptr;
#endif
  if (!fn) {
#if !defined(_WIN32)
    close(fd);
#endif
    throw Error(CLVF_ERROR_UNSUPPORTED, "CUDA frames: the OpenCL loader has no clCreateBufferWithProperties (OpenCL 3.0)");
  }
  const cl_ulong properties[] = {kExternalMemoryOpaqueFd, static_cast<cl_ulong>(fd), 0};
  cl_int err = CL_SUCCESS;
  cl_mem mem = fn(context, properties, CL_MEM_READ_WRITE, size, nullptr, &err);
  if (err != CL_SUCCESS) {
#if !defined(_WIN32)
    close(fd);
#endif
    throw Error(cl_error_status(err), cl_error_message("clCreateBufferWithProperties (CUDA memory)", err));
  }
  return mem;
}

Importer& test_importer() {
  static Importer importer;
  return importer;
}

// Device memory of the current context's GPU, exportable as a file descriptor.
CUmemAllocationProp allocation_prop() {
  CUdevice device = 0;
  check(driver().cuCtxGetDevice(&device), "cuCtxGetDevice");
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  prop.location = {CU_MEM_LOCATION_TYPE_DEVICE, device};
  return prop;
}

}  // namespace

void set_importer_for_testing(Importer importer) { test_importer() = std::move(importer); }
bool importer_is_fake() { return static_cast<bool>(test_importer()); }

std::string device_uuid(CUcontext context) {
  ContextScope scope(context);
  CUdevice device = 0;
  check(driver().cuCtxGetDevice(&device), "cuCtxGetDevice");
  unsigned char uuid[16] = {};
  check(driver().cuDeviceGetUuid(uuid, device), "cuDeviceGetUuid");
  return std::string(reinterpret_cast<const char*>(uuid), sizeof uuid);
}

Share::Share(CUcontext context, cl::Context cl_context) : context_(context), cl_context_(std::move(cl_context)) {
  ContextScope scope(context_);
  const CUmemAllocationProp prop = allocation_prop();
  check(driver().cuMemGetAllocationGranularity(&granularity_, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED),
        "cuMemGetAllocationGranularity");
  if (granularity_ == 0) granularity_ = 2 << 20;
}

std::shared_ptr<Allocation> Share::allocate(size_t bytes) {
  if (bytes == 0) throw Error(CLVF_ERROR_INVALID_ARGUMENT, "CUDA buffer: size 0");
  std::shared_ptr<Allocation> a(new Allocation);
  a->share_ = shared_from_this();
  a->size_ = (bytes + granularity_ - 1) / granularity_ * granularity_;
  const Driver& d = driver();
  ContextScope scope(context_);
  const CUmemAllocationProp prop = allocation_prop();
  check(d.cuMemCreate(&a->handle_, a->size_, &prop, 0), "cuMemCreate");
  check(d.cuMemAddressReserve(&a->ptr_, a->size_, 0, 0, 0), "cuMemAddressReserve");
  check(d.cuMemMap(a->ptr_, a->size_, 0, a->handle_, 0), "cuMemMap");
  a->mapped_ = true;
  const CUmemAccessDesc access{prop.location, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
  check(d.cuMemSetAccess(a->ptr_, a->size_, &access, 1), "cuMemSetAccess");
  int fd = -1;
  check(d.cuMemExportToShareableHandle(&fd, a->handle_, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
        "cuMemExportToShareableHandle");
  const Importer& fake = test_importer();
  a->buffer_ = cl::Buffer(fake ? fake(cl_context_(), fd, a->size_) : import_opaque_fd(cl_context_(), fd, a->size_));
  std::lock_guard lock(mutex_);
  live_[a->ptr_] = a.get();
  return a;
}

std::optional<std::pair<cl::Buffer, size_t>> Share::find(CUdeviceptr ptr, size_t bytes) const {
  std::lock_guard lock(mutex_);
  auto it = live_.upper_bound(ptr);
  if (it == live_.begin()) return std::nullopt;
  const Allocation* a = std::prev(it)->second;
  if (ptr + bytes > a->ptr_ + a->size_) return std::nullopt;
  return std::make_pair(a->buffer_, static_cast<size_t>(ptr - a->ptr_));
}

void Share::forget(CUdeviceptr ptr) {
  std::lock_guard lock(mutex_);
  live_.erase(ptr);
}

Allocation::~Allocation() {
  if (!share_) return;
  share_->forget(ptr_);
  buffer_ = cl::Buffer();  // OpenCL lets go of the memory first
  try {
    const Driver& d = driver();
    ContextScope scope(share_->context_);
    if (mapped_) d.cuMemUnmap(ptr_, size_);
    if (ptr_) d.cuMemAddressFree(ptr_, size_);
    if (handle_) d.cuMemRelease(handle_);
  } catch (...) {  // a destructor: the driver is gone with the process
  }
}

}  // namespace clvf::cuda
