// The CUDA driver API as clvf uses it, loaded at run time from libcuda.so.1 (as FFmpeg loads it),
// so that the library builds and runs where NVIDIA's driver is absent. The types are the driver
// API's (cuda.h, 64-bit Linux ABI), declared here because no CUDA toolkit is needed to build.
// Tests install a table of their own (set_cuda_driver_for_testing).
#pragma once
#include <cstddef>
#include <cstdint>

namespace clvf::detail::cuda {

using CUresult = int;
using CUdeviceptr = unsigned long long;
using CUdevice = int;
using CUcontext = struct CUctx_st*;
using CUstream = struct CUstream_st*;
using CUmemGenericAllocationHandle = unsigned long long;
using CUexternalSemaphore = struct CUextSemaphore_st*;
constexpr CUresult CUDA_SUCCESS = 0;

enum CUmemAllocationHandleType { CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR = 0x1 };
enum CUmemAllocationType { CU_MEM_ALLOCATION_TYPE_PINNED = 0x1 };
enum CUmemLocationType { CU_MEM_LOCATION_TYPE_DEVICE = 0x1 };
enum CUmemAccess_flags { CU_MEM_ACCESS_FLAGS_PROT_READWRITE = 0x3 };
enum CUmemAllocationGranularity_flags { CU_MEM_ALLOC_GRANULARITY_RECOMMENDED = 0x1 };
enum CUmemorytype { CU_MEMORYTYPE_DEVICE = 0x2 };

enum CUexternalSemaphoreHandleType { CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD = 1 };

struct CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC {
  CUexternalSemaphoreHandleType type;
  union {
    int fd;
    struct {
      void* handle;
      const void* name;
    } win32;
  } handle;
  unsigned flags;
  unsigned reserved[16];
};
// Signal and wait parameters: only a binary semaphore's (all zero) are used; the layout is the
// driver's, which reads the whole structure.
struct CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS {
  struct {
    unsigned long long fence_value;
    unsigned long long nv_sci_sync;
    unsigned long long keyed_mutex_key;
    unsigned reserved[12];
  } params;
  unsigned flags;
  unsigned reserved[16];
};
struct CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS {
  struct {
    unsigned long long fence_value;
    unsigned long long nv_sci_sync;
    struct {
      unsigned long long key;
      unsigned timeout_ms;
    } keyed_mutex;
    unsigned reserved[10];
  } params;
  unsigned flags;
  unsigned reserved[16];
};
static_assert(sizeof(CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC) == 96);
static_assert(sizeof(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS) == 144);
static_assert(sizeof(CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS) == 144);

struct CUmemLocation {
  CUmemLocationType type;
  int id;
};
struct CUmemAllocationProp {
  CUmemAllocationType type;
  CUmemAllocationHandleType requestedHandleTypes;
  CUmemLocation location;
  void* win32HandleMetaData;
  struct {
    unsigned char compressionType;
    unsigned char gpuDirectRDMACapable;
    unsigned short usage;
    unsigned char reserved[4];
  } allocFlags;
};
struct CUmemAccessDesc {
  CUmemLocation location;
  CUmemAccess_flags flags;
};
struct CUDA_MEMCPY2D {
  size_t srcXInBytes, srcY;
  CUmemorytype srcMemoryType;
  const void* srcHost;
  CUdeviceptr srcDevice;
  void* srcArray;
  size_t srcPitch;
  size_t dstXInBytes, dstY;
  CUmemorytype dstMemoryType;
  void* dstHost;
  CUdeviceptr dstDevice;
  void* dstArray;
  size_t dstPitch;
  size_t WidthInBytes, Height;
};

// The entry points, each with the name (and version suffix) it has in libcuda.so.1.
struct Driver {
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuCtxPushCurrent)(CUcontext ctx);   // _v2
  CUresult (*cuCtxPopCurrent)(CUcontext* ctx);   // _v2
  CUresult (*cuCtxGetDevice)(CUdevice* device);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuDeviceGetUuid)(unsigned char uuid[16], CUdevice device);
  CUresult (*cuMemGetAllocationGranularity)(size_t* granularity, const CUmemAllocationProp* prop,
                                            CUmemAllocationGranularity_flags option);
  CUresult (*cuMemCreate)(CUmemGenericAllocationHandle* handle, size_t size, const CUmemAllocationProp* prop,
                          unsigned long long flags);
  CUresult (*cuMemExportToShareableHandle)(void* handle, CUmemGenericAllocationHandle allocation,
                                           CUmemAllocationHandleType type, unsigned long long flags);
  CUresult (*cuMemAddressReserve)(CUdeviceptr* ptr, size_t size, size_t alignment, CUdeviceptr addr,
                                  unsigned long long flags);
  CUresult (*cuMemMap)(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                       unsigned long long flags);
  CUresult (*cuMemSetAccess)(CUdeviceptr ptr, size_t size, const CUmemAccessDesc* desc, size_t count);
  CUresult (*cuMemUnmap)(CUdeviceptr ptr, size_t size);
  CUresult (*cuMemAddressFree)(CUdeviceptr ptr, size_t size);
  CUresult (*cuMemRelease)(CUmemGenericAllocationHandle handle);
  CUresult (*cuMemcpy2D)(const CUDA_MEMCPY2D* copy);  // _v2: device to device, returns before it is done
  CUresult (*cuMemcpy2DAsync)(const CUDA_MEMCPY2D* copy, CUstream stream);  // _v2
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuImportExternalSemaphore)(CUexternalSemaphore* semaphore, const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC* desc);
  CUresult (*cuSignalExternalSemaphoresAsync)(const CUexternalSemaphore* semaphores,
                                              const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS* params, unsigned count,
                                              CUstream stream);
  CUresult (*cuWaitExternalSemaphoresAsync)(const CUexternalSemaphore* semaphores,
                                            const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS* params, unsigned count,
                                            CUstream stream);
  CUresult (*cuDestroyExternalSemaphore)(CUexternalSemaphore semaphore);
  CUresult (*cuGetErrorName)(CUresult error, const char** name);
};

// The loaded driver (cuInit done), or Error(UNSUPPORTED) saying why there is none.
const Driver& driver();
// Replaces the driver for tests (nullptr: the real one again). Not thread-safe.
void set_driver_for_testing(const Driver* fake);

// Throws Error(OPENCL-like) "CALL: CUDA_ERROR_NAME (code)" unless result is CUDA_SUCCESS.
void check(CUresult result, const char* call);

// The CUDA context current on this thread for the life of the object.
class ContextScope {
 public:
  explicit ContextScope(CUcontext context);
  ~ContextScope();
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;
};

}  // namespace clvf::detail::cuda
