#include "interop/cuda/cuda_share.hpp"

#include <fmt/format.h>

#include <algorithm>

#if !defined(_WIN32)
#include <unistd.h>
#endif

#include "runtime/cl_entry.hpp"
#include "runtime/error.hpp"

namespace clvf::detail::cuda {

namespace {

constexpr cl_uint kExternalMemoryOpaqueFd = 0x2060;  // CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR

// clCreateBufferWithProperties is OpenCL 3.0; the library targets 1.2 headers, so it is looked up.
using CreateBufferWithProperties = cl_mem (*)(cl_context, const cl_ulong*, cl_mem_flags, size_t, void*, cl_int*);

cl_mem import_opaque_fd(cl_context context, int fd, size_t size) {
  static const auto fn = cl_entry<CreateBufferWithProperties>("clCreateBufferWithProperties");
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

// Every live clvf allocation in the process, by start address (CUDA's addresses are unique in a
// process), so that a Share finds the allocations of the others.
struct Registry {
  std::mutex mutex;
  std::map<CUdeviceptr, std::weak_ptr<Allocation>> live;
  uint64_t next_serial = 1;
};
Registry& registry() {
  static Registry r;
  return r;
}

// The live allocation holding [ptr, ptr + bytes), if any.
std::shared_ptr<Allocation> allocation_holding(CUdeviceptr ptr, size_t bytes) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.live.upper_bound(ptr);
  if (it == r.live.begin()) return nullptr;
  std::shared_ptr<Allocation> a = std::prev(it)->second.lock();
  if (!a || ptr + bytes > a->pointer() + a->size()) return nullptr;
  return a;
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

Share::Share(CUcontext context, cl::Context cl_context, cl::Device device, const ClSemaphoreApi* semaphores)
    : context_(context),
      cl_context_(std::move(cl_context)),
      device_(std::move(device)),
      semaphores_(semaphores),
      sync_(CLVF_CUDA_SYNC_AUTO) {
  ContextScope scope(context_);
  const CUmemAllocationProp prop = allocation_prop();
  check(driver().cuMemGetAllocationGranularity(&granularity_, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED),
        "cuMemGetAllocationGranularity");
  if (granularity_ == 0) granularity_ = 2 << 20;
  if (semaphores_) {
    // Offered is not enough: one is made, exported and imported, or none are used.
    try {
      Semaphore trial(*semaphores_, cl_context_, device_, context_);
    } catch (const Error& e) {
      semaphore_problem_ = e.what();
      semaphores_ = nullptr;
    }
  } else {
    semaphore_problem_ = "no cl_khr_external_semaphore_opaque_fd export";
  }
  set_sync(nullptr, CLVF_CUDA_SYNC_AUTO);
}

clvf_cuda_sync Share::set_sync(CUstream stream, clvf_cuda_sync sync) {
  if (sync == CLVF_CUDA_SYNC_SEMAPHORES && !semaphores_)
    throw Error(CLVF_ERROR_UNSUPPORTED, fmt::format("CUDA frames: this OpenCL device cannot share semaphores with CUDA "
                                                   "({}); use CLVF_CUDA_SYNC_AUTO, STREAM or CONTEXT",
                                                   semaphore_problem_));
  if (sync == CLVF_CUDA_SYNC_AUTO) sync = semaphores_ ? CLVF_CUDA_SYNC_SEMAPHORES : CLVF_CUDA_SYNC_STREAM;
  stream_ = stream;
  return sync_ = sync;
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
  a->buffer_ = cl::Buffer(import(a->handle_, a->size_));
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  a->serial_ = r.next_serial++;
  r.live[a->ptr_] = a;
  return a;
}

cl_mem Share::import(CUmemGenericAllocationHandle handle, size_t size) const {
  int fd = -1;
  check(driver().cuMemExportToShareableHandle(&fd, handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
        "cuMemExportToShareableHandle");
  const Importer& fake = test_importer();
  return fake ? fake(cl_context_(), fd, size) : import_opaque_fd(cl_context_(), fd, size);
}

std::optional<std::pair<cl::Buffer, size_t>> Share::find(CUdeviceptr ptr, size_t bytes) {
  const std::shared_ptr<Allocation> a = allocation_holding(ptr, bytes);
  if (!a || a->share_->context_ != context_) return std::nullopt;
  const size_t offset = static_cast<size_t>(ptr - a->ptr_);
  if (a->share_.get() == this) return std::make_pair(a->buffer_, offset);
  std::lock_guard lock(mutex_);
  std::erase_if(foreign_, [](const auto& entry) { return entry.second.source.expired(); });
  auto it = foreign_.find(a->serial_);
  if (it == foreign_.end()) {
    ContextScope scope(context_);
    it = foreign_.emplace(a->serial_, Foreign{a, cl::Buffer(import(a->handle_, a->size_))}).first;
  }
  return std::make_pair(it->second.buffer, offset);
}

size_t Share::foreign_imports() const {
  std::lock_guard lock(mutex_);
  return static_cast<size_t>(std::count_if(foreign_.begin(), foreign_.end(),
                                           [](const auto& entry) { return !entry.second.source.expired(); }));
}

Allocation::~Allocation() {
  if (!share_) return;
  {
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    auto it = r.live.find(ptr_);
    if (it != r.live.end() && it->second.expired()) r.live.erase(it);  // not a newer one at this address
  }
  buffer_ = cl::Buffer();  // OpenCL lets go of the memory first
  try {
    const Driver& d = driver();
    ContextScope scope(share_->context());
    if (mapped_) d.cuMemUnmap(ptr_, size_);
    if (ptr_) d.cuMemAddressFree(ptr_, size_);
    if (handle_) d.cuMemRelease(handle_);
  } catch (...) {  // a destructor: the driver is gone with the process
  }
}

}  // namespace clvf::detail::cuda
