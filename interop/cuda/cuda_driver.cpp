#include "interop/cuda/cuda_driver.hpp"

#include <fmt/format.h>

#include <mutex>
#include <string>

#if !defined(_WIN32)
#include <dlfcn.h>
#endif

#include "runtime/error.hpp"

namespace clvf::detail::cuda {

namespace {

const Driver* fake_driver = nullptr;

constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;

struct Loaded {
  Driver table{};
  std::string error;  // why there is no driver ("" when loaded)
};

#if !defined(_WIN32)
template <typename F>
bool resolve(void* lib, F& slot, const char* name, std::string& error) {
  slot = reinterpret_cast<F>(dlsym(lib, name));
  if (!slot && error.empty()) error = fmt::format("libcuda.so.1 has no {} (the driver is older than CUDA 10.2)", name);
  return slot != nullptr;
}

Loaded load() {
  Loaded l;
  // Kept loaded for the life of the process, as FFmpeg's loader does while a device lives.
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    l.error = fmt::format("no CUDA driver: {}", dlerror());
    return l;
  }
  Driver& d = l.table;
  std::string& e = l.error;
  resolve(lib, d.cuInit, "cuInit", e);
  resolve(lib, d.cuCtxPushCurrent, "cuCtxPushCurrent_v2", e);
  resolve(lib, d.cuCtxPopCurrent, "cuCtxPopCurrent_v2", e);
  resolve(lib, d.cuCtxGetDevice, "cuCtxGetDevice", e);
  resolve(lib, d.cuCtxSynchronize, "cuCtxSynchronize", e);
  resolve(lib, d.cuDeviceGetUuid, "cuDeviceGetUuid", e);
  resolve(lib, d.cuMemGetAllocationGranularity, "cuMemGetAllocationGranularity", e);
  resolve(lib, d.cuMemCreate, "cuMemCreate", e);
  resolve(lib, d.cuMemExportToShareableHandle, "cuMemExportToShareableHandle", e);
  resolve(lib, d.cuMemAddressReserve, "cuMemAddressReserve", e);
  resolve(lib, d.cuMemMap, "cuMemMap", e);
  resolve(lib, d.cuMemSetAccess, "cuMemSetAccess", e);
  resolve(lib, d.cuMemUnmap, "cuMemUnmap", e);
  resolve(lib, d.cuMemAddressFree, "cuMemAddressFree", e);
  resolve(lib, d.cuMemRelease, "cuMemRelease", e);
  resolve(lib, d.cuMemcpy2D, "cuMemcpy2D_v2", e);
  resolve(lib, d.cuMemcpy2DAsync, "cuMemcpy2DAsync_v2", e);
  resolve(lib, d.cuStreamSynchronize, "cuStreamSynchronize", e);
  resolve(lib, d.cuImportExternalSemaphore, "cuImportExternalSemaphore", e);
  resolve(lib, d.cuSignalExternalSemaphoresAsync, "cuSignalExternalSemaphoresAsync", e);
  resolve(lib, d.cuWaitExternalSemaphoresAsync, "cuWaitExternalSemaphoresAsync", e);
  resolve(lib, d.cuDestroyExternalSemaphore, "cuDestroyExternalSemaphore", e);
  resolve(lib, d.cuGetErrorName, "cuGetErrorName", e);
  if (e.empty()) {
    const CUresult r = d.cuInit(0);
    if (r != CUDA_SUCCESS) e = fmt::format("cuInit failed ({}): no usable CUDA device", r);
  }
  return l;
}
#else
Loaded load() {
  Loaded l;
  l.error = "CUDA frames are supported on Linux only";
  return l;
}
#endif

}  // namespace

const Driver& driver() {
  if (fake_driver) return *fake_driver;
  static std::once_flag once;
  static Loaded loaded;
  std::call_once(once, [] { loaded = load(); });
  if (!loaded.error.empty()) throw Error(CLVF_ERROR_UNSUPPORTED, "CUDA frames: " + loaded.error);
  return loaded.table;
}

void set_driver_for_testing(const Driver* fake) { fake_driver = fake; }

void check(CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return;
  const char* name = nullptr;
  const Driver& d = driver();
  if (!d.cuGetErrorName || d.cuGetErrorName(result, &name) != CUDA_SUCCESS || !name) name = "unknown CUDA error";
  throw Error(result == CUDA_ERROR_OUT_OF_MEMORY ? CLVF_ERROR_OUT_OF_MEMORY : CLVF_ERROR_CUDA,
              fmt::format("{}: {} ({})", call, name, result));
}

ContextScope::ContextScope(CUcontext context) { check(driver().cuCtxPushCurrent(context), "cuCtxPushCurrent"); }

ContextScope::~ContextScope() {
  CUcontext popped = nullptr;
  driver().cuCtxPopCurrent(&popped);
}

}  // namespace clvf::detail::cuda
