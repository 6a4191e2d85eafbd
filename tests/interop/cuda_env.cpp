#include "cuda_env.hpp"

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "interop/cuda/cuda_semaphore.hpp"
#include "interop/cuda/cuda_share.hpp"
#include "runtime/cl.hpp"

namespace clvf::detail::test {

int CudaEnv::copies = 0;
int CudaEnv::syncs = 0;
int CudaEnv::stream_syncs = 0;
int CudaEnv::cuda_signals = 0;
int CudaEnv::cuda_waits = 0;
int CudaEnv::semaphore_misuse = 0;
int CudaEnv::live_cl_semaphores = 0;
int CudaEnv::live_cuda_semaphores = 0;

namespace {

using namespace clvf::detail::cuda;

// ---- the fake driver: "device memory" is host memory; allocations are memfds ----
struct FakeAllocation {
  int fd;
  size_t size;
};
std::map<CUmemGenericAllocationHandle, FakeAllocation> fake_allocations;
CUmemGenericAllocationHandle next_handle = 1;
int fake_current = 0;
const unsigned char kFakeUuid[16] = {'f', 'a', 'k', 'e', '-', 'c', 'u', 'd', 'a', '-', 'g', 'p', 'u', 0, 0, 1};

CUresult fake_init(unsigned) { return CUDA_SUCCESS; }
CUresult fake_push(CUcontext) { return ++fake_current, CUDA_SUCCESS; }
CUresult fake_pop(CUcontext* c) {
  if (c) *c = nullptr;
  return --fake_current, CUDA_SUCCESS;
}
CUresult fake_get_device(CUdevice* d) { return fake_current > 0 ? (*d = 0, CUDA_SUCCESS) : 201; }  // INVALID_CONTEXT
CUresult fake_sync() { return CUDA_SUCCESS; }
CUresult fake_uuid(unsigned char uuid[16], CUdevice) { return std::memcpy(uuid, kFakeUuid, 16), CUDA_SUCCESS; }
CUresult fake_granularity(size_t* g, const CUmemAllocationProp* prop, CUmemAllocationGranularity_flags) {
  if (prop->requestedHandleTypes != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) return 1;
  return *g = 65536, CUDA_SUCCESS;
}
CUresult fake_create(CUmemGenericAllocationHandle* h, size_t size, const CUmemAllocationProp* prop, unsigned long long) {
  if (size % 65536 || prop->type != CU_MEM_ALLOCATION_TYPE_PINNED) return 1;  // INVALID_VALUE, as the driver
  const int fd = memfd_create("fake-cuda", 0);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(size)) != 0) return 2;
  *h = next_handle++;
  fake_allocations[*h] = {fd, size};
  return CUDA_SUCCESS;
}
CUresult fake_export(void* out, CUmemGenericAllocationHandle h, CUmemAllocationHandleType type, unsigned long long) {
  auto it = fake_allocations.find(h);
  if (it == fake_allocations.end() || type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) return 1;
  *static_cast<int*>(out) = dup(it->second.fd);
  return CUDA_SUCCESS;
}
CUresult fake_reserve(CUdeviceptr* p, size_t size, size_t, CUdeviceptr, unsigned long long) {
  void* m = mmap(nullptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return 2;
  *p = reinterpret_cast<CUdeviceptr>(m);
  return CUDA_SUCCESS;
}
CUresult fake_map(CUdeviceptr p, size_t size, size_t offset, CUmemGenericAllocationHandle h, unsigned long long) {
  auto it = fake_allocations.find(h);
  if (it == fake_allocations.end()) return 1;
  void* m = mmap(reinterpret_cast<void*>(p), size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, it->second.fd,
                 static_cast<off_t>(offset));
  return m == MAP_FAILED ? 2 : CUDA_SUCCESS;
}
CUresult fake_access(CUdeviceptr, size_t, const CUmemAccessDesc* d, size_t n) {
  return n == 1 && d->flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE ? CUDA_SUCCESS : 1;
}
CUresult fake_unmap(CUdeviceptr p, size_t size) {
  return mmap(reinterpret_cast<void*>(p), size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED
             ? 1
             : CUDA_SUCCESS;
}
CUresult fake_address_free(CUdeviceptr p, size_t size) { return munmap(reinterpret_cast<void*>(p), size) ? 1 : CUDA_SUCCESS; }
CUresult fake_release(CUmemGenericAllocationHandle h) {
  auto it = fake_allocations.find(h);
  if (it == fake_allocations.end()) return 1;
  close(it->second.fd);
  fake_allocations.erase(it);
  return CUDA_SUCCESS;
}
CUresult fake_copy(const CUDA_MEMCPY2D* c) {
  if (c->srcMemoryType != CU_MEMORYTYPE_DEVICE || c->dstMemoryType != CU_MEMORYTYPE_DEVICE) return 1;
  for (size_t y = 0; y < c->Height; ++y)
    std::memcpy(reinterpret_cast<uint8_t*>(c->dstDevice + (c->dstY + y) * c->dstPitch + c->dstXInBytes),
                reinterpret_cast<const uint8_t*>(c->srcDevice + (c->srcY + y) * c->srcPitch + c->srcXInBytes),
                c->WidthInBytes);
  return CUDA_SUCCESS;
}
CUresult fake_copy_async(const CUDA_MEMCPY2D* c, CUstream) { return fake_copy(c); }
CUresult fake_stream_sync(CUstream) { return CUDA_SUCCESS; }
CUresult fake_error_name(CUresult, const char** name) { return *name = "CUDA_ERROR_FAKE", CUDA_SUCCESS; }

// ---- the fake semaphores: one binary state seen by both sides ----
struct FakeSemaphore {
  bool signaled = false;
  int holders = 1;  // OpenCL's object, and CUDA's import once made
};
std::map<int, FakeSemaphore*> exported;  // descriptor -> semaphore, until CUDA imports it

void let_go(FakeSemaphore* s) {
  if (--s->holders == 0) delete s;
}
// A binary semaphore is signalled once before each wait.
bool signal(FakeSemaphore* s) {
  if (s->signaled) return ++CudaEnv::semaphore_misuse, false;
  return s->signaled = true;
}
bool wait(FakeSemaphore* s) {
  if (!s->signaled) return ++CudaEnv::semaphore_misuse, false;
  s->signaled = false;
  return true;
}

CUresult fake_import_semaphore(CUexternalSemaphore* out, const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC* desc) {
  if (desc->type != CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD) return 1;
  auto it = exported.find(desc->handle.fd);
  if (it == exported.end()) return 1;
  close(it->first);  // the driver's once imported
  *out = reinterpret_cast<CUexternalSemaphore>(it->second);
  ++it->second->holders;
  exported.erase(it);
  ++CudaEnv::live_cuda_semaphores;
  return CUDA_SUCCESS;
}
CUresult fake_cuda_signal(const CUexternalSemaphore* s, const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS*, unsigned n, CUstream) {
  for (unsigned i = 0; i < n; ++i)
    if (!signal(reinterpret_cast<FakeSemaphore*>(s[i]))) return 1;
  return CUDA_SUCCESS;
}
CUresult fake_cuda_wait(const CUexternalSemaphore* s, const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS*, unsigned n, CUstream) {
  for (unsigned i = 0; i < n; ++i)
    if (!wait(reinterpret_cast<FakeSemaphore*>(s[i]))) return 1;
  return CUDA_SUCCESS;
}
CUresult fake_destroy_semaphore(CUexternalSemaphore s) {
  --CudaEnv::live_cuda_semaphores;
  let_go(reinterpret_cast<FakeSemaphore*>(s));
  return CUDA_SUCCESS;
}

cl_semaphore_khr CL_API_CALL fake_cl_create(cl_context, const cl_semaphore_properties_khr* p, cl_int* err) {
  bool binary = false, opaque_fd = false;
  for (; p && *p; p += 2) {
    binary |= p[0] == CL_SEMAPHORE_TYPE_KHR && p[1] == CL_SEMAPHORE_TYPE_BINARY_KHR;
    if (p[0] == CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR) opaque_fd = p[1] == CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, ++p;
  }
  if (!binary || !opaque_fd) return *err = CL_INVALID_VALUE, nullptr;
  ++CudaEnv::live_cl_semaphores;
  *err = CL_SUCCESS;
  return reinterpret_cast<cl_semaphore_khr>(new FakeSemaphore);
}
cl_int CL_API_CALL fake_cl_export(cl_semaphore_khr s, cl_device_id, cl_external_semaphore_handle_type_khr type,
                                  size_t size, void* out, size_t*) {
  if (type != CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR || size != sizeof(int)) return CL_INVALID_VALUE;
  const int fd = memfd_create("fake-semaphore", 0);
  exported[fd] = reinterpret_cast<FakeSemaphore*>(s);
  *static_cast<int*>(out) = fd;
  return CL_SUCCESS;
}
cl_int CL_API_CALL fake_cl_wait(cl_command_queue, cl_uint n, const cl_semaphore_khr* s, const cl_semaphore_payload_khr*,
                                cl_uint, const cl_event*, cl_event*) {
  for (cl_uint i = 0; i < n; ++i)
    if (!wait(reinterpret_cast<FakeSemaphore*>(s[i]))) return CL_INVALID_OPERATION;
  return CL_SUCCESS;
}
cl_int CL_API_CALL fake_cl_signal(cl_command_queue queue, cl_uint n, const cl_semaphore_khr* s,
                                  const cl_semaphore_payload_khr*, cl_uint, const cl_event*, cl_event*) {
  clFinish(queue);  // the fake CUDA runs on the host at once: what it reads after this must be written
  for (cl_uint i = 0; i < n; ++i)
    if (!signal(reinterpret_cast<FakeSemaphore*>(s[i]))) return CL_INVALID_OPERATION;
  return CL_SUCCESS;
}
cl_int CL_API_CALL fake_cl_release(cl_semaphore_khr s) {
  --CudaEnv::live_cl_semaphores;
  let_go(reinterpret_cast<FakeSemaphore*>(s));
  return CL_SUCCESS;
}
const ClSemaphoreApi kFakeSemaphores = {fake_cl_create, fake_cl_export, fake_cl_wait, fake_cl_signal, fake_cl_release};

const Driver kFake = {.cuInit = fake_init,
                      .cuCtxPushCurrent = fake_push,
                      .cuCtxPopCurrent = fake_pop,
                      .cuCtxGetDevice = fake_get_device,
                      .cuCtxSynchronize = fake_sync,
                      .cuDeviceGetUuid = fake_uuid,
                      .cuMemGetAllocationGranularity = fake_granularity,
                      .cuMemCreate = fake_create,
                      .cuMemExportToShareableHandle = fake_export,
                      .cuMemAddressReserve = fake_reserve,
                      .cuMemMap = fake_map,
                      .cuMemSetAccess = fake_access,
                      .cuMemUnmap = fake_unmap,
                      .cuMemAddressFree = fake_address_free,
                      .cuMemRelease = fake_release,
                      .cuMemcpy2D = fake_copy,
                      .cuMemcpy2DAsync = fake_copy_async,
                      .cuStreamSynchronize = fake_stream_sync,
                      .cuImportExternalSemaphore = fake_import_semaphore,
                      .cuSignalExternalSemaphoresAsync = fake_cuda_signal,
                      .cuWaitExternalSemaphoresAsync = fake_cuda_wait,
                      .cuDestroyExternalSemaphore = fake_destroy_semaphore,
                      .cuGetErrorName = fake_error_name};

// OpenCL's side of the fake: the same pages, mapped again and used in place.
cl_mem fake_import(cl_context context, int fd, size_t size) {
  void* m = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (m == MAP_FAILED) throw std::runtime_error("fake import: mmap failed");
  cl_int err = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, size, m, &err);
  if (err != CL_SUCCESS) throw std::runtime_error("fake import: clCreateBuffer failed");
  struct Span {
    void* p;
    size_t n;
  };
  clSetMemObjectDestructorCallback(
      mem,
      [](cl_mem, void* s) {
        auto* span = static_cast<Span*>(s);
        munmap(span->p, span->n);
        delete span;
      },
      new Span{m, size});
  return mem;
}

// ---- counting: every driver call forwards to the driver under test ----
const Driver* base = nullptr;
CUresult count_copy(const CUDA_MEMCPY2D* c) { return ++CudaEnv::copies, base->cuMemcpy2D(c); }
CUresult count_copy_async(const CUDA_MEMCPY2D* c, CUstream s) { return ++CudaEnv::copies, base->cuMemcpy2DAsync(c, s); }
CUresult count_sync() { return ++CudaEnv::syncs, base->cuCtxSynchronize(); }
CUresult count_stream_sync(CUstream s) { return ++CudaEnv::stream_syncs, base->cuStreamSynchronize(s); }
CUresult count_signal(const CUexternalSemaphore* s, const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS* p, unsigned n,
                      CUstream stream) {
  return ++CudaEnv::cuda_signals, base->cuSignalExternalSemaphoresAsync(s, p, n, stream);
}
CUresult count_wait(const CUexternalSemaphore* s, const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS* p, unsigned n,
                    CUstream stream) {
  return ++CudaEnv::cuda_waits, base->cuWaitExternalSemaphoresAsync(s, p, n, stream);
}

// Real-driver calls the table does not hold.
using CtxCreate = CUresult (*)(CUcontext*, unsigned, CUdevice);
using MemAlloc = CUresult (*)(CUdeviceptr*, size_t);
using MemFree = CUresult (*)(CUdeviceptr);
using CopyHtoD = CUresult (*)(CUdeviceptr, const void*, size_t);
using CopyDtoH = CUresult (*)(void*, CUdeviceptr, size_t);
template <typename F>
F sym(void* lib, const char* name) {
  auto f = reinterpret_cast<F>(dlsym(lib, name));
  if (!f) throw std::runtime_error(std::string("libcuda.so.1 lacks ") + name);
  return f;
}
void real_check(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + std::to_string(r));
}

}  // namespace

const cuda::ClSemaphoreApi& CudaEnv::fake_semaphores() { return kFakeSemaphores; }

CudaEnv::CudaEnv() {
  semaphore_misuse = 0;
  const char* mode = std::getenv("CLVF_TEST_CUDA");
  real_ = mode && std::string(mode) == "real";
  if (real_) {
    set_driver_for_testing(nullptr);
    base = &driver();
    lib_ = dlopen("libcuda.so.1", RTLD_NOW);
    CUcontext ctx = nullptr;
    real_check(sym<CtxCreate>(lib_, "cuCtxCreate_v2")(&ctx, 0, 0), "cuCtxCreate");
    CUcontext popped = nullptr;
    base->cuCtxPopCurrent(&popped);
    context_ = ctx;
  } else {
    base = &kFake;
    set_importer_for_testing(fake_import);
    set_semaphores_for_testing(&kFakeSemaphores);
    context_ = reinterpret_cast<void*>(0x1);  // any non-null handle: the fake has one context
  }
  counting_ = *base;
  counting_.cuMemcpy2D = count_copy;
  counting_.cuMemcpy2DAsync = count_copy_async;
  counting_.cuCtxSynchronize = count_sync;
  counting_.cuStreamSynchronize = count_stream_sync;
  counting_.cuSignalExternalSemaphoresAsync = count_signal;
  counting_.cuWaitExternalSemaphoresAsync = count_wait;
  set_driver_for_testing(&counting_);
}

CudaEnv::~CudaEnv() {
  set_driver_for_testing(nullptr);
  set_importer_for_testing({});
  set_semaphores_for_testing(nullptr);
  if (real_) {
    using Destroy = CUresult (*)(CUcontext);
    sym<Destroy>(lib_, "cuCtxDestroy_v2")(static_cast<CUcontext>(context_));
  }
}

cuda::CUdeviceptr CudaEnv::alloc_plain(size_t bytes) {
  if (!real_) return reinterpret_cast<CUdeviceptr>(std::aligned_alloc(256, (bytes + 255) / 256 * 256));
  ContextScope scope(static_cast<CUcontext>(context_));
  CUdeviceptr p = 0;
  real_check(sym<MemAlloc>(lib_, "cuMemAlloc_v2")(&p, bytes), "cuMemAlloc");
  return p;
}

void CudaEnv::free_plain(cuda::CUdeviceptr ptr) {
  if (!real_) return std::free(reinterpret_cast<void*>(ptr));
  ContextScope scope(static_cast<CUcontext>(context_));
  sym<MemFree>(lib_, "cuMemFree_v2")(ptr);
}

void CudaEnv::upload(cuda::CUdeviceptr dst, const void* src, size_t bytes) {
  if (!real_) return void(std::memcpy(reinterpret_cast<void*>(dst), src, bytes));
  ContextScope scope(static_cast<CUcontext>(context_));
  real_check(sym<CopyHtoD>(lib_, "cuMemcpyHtoD_v2")(dst, src, bytes), "cuMemcpyHtoD");
}

void CudaEnv::download(void* dst, cuda::CUdeviceptr src, size_t bytes) {
  if (!real_) return void(std::memcpy(dst, reinterpret_cast<const void*>(src), bytes));
  ContextScope scope(static_cast<CUcontext>(context_));
  real_check(sym<CopyDtoH>(lib_, "cuMemcpyDtoH_v2")(dst, src, bytes), "cuMemcpyDtoH");
}

}  // namespace clvf::detail::test
