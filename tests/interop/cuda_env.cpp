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

#include "interop/cuda/cuda_share.hpp"
#include "runtime/cl.hpp"

namespace clvf::test {

int CudaEnv::copies = 0;
int CudaEnv::syncs = 0;

namespace {

using namespace clvf::cuda;

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
CUresult fake_error_name(CUresult, const char** name) { return *name = "CUDA_ERROR_FAKE", CUDA_SUCCESS; }

const Driver kFake = {fake_init, fake_push, fake_pop, fake_get_device, fake_sync, fake_uuid, fake_granularity,
                      fake_create, fake_export, fake_reserve, fake_map, fake_access, fake_unmap, fake_address_free,
                      fake_release, fake_copy, fake_error_name};

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
CUresult count_sync() { return ++CudaEnv::syncs, base->cuCtxSynchronize(); }

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

CudaEnv::CudaEnv() {
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
    context_ = reinterpret_cast<void*>(0x1);  // any non-null handle: the fake has one context
  }
  counting_ = *base;
  counting_.cuMemcpy2D = count_copy;
  counting_.cuCtxSynchronize = count_sync;
  set_driver_for_testing(&counting_);
}

CudaEnv::~CudaEnv() {
  set_driver_for_testing(nullptr);
  set_importer_for_testing({});
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

}  // namespace clvf::test
