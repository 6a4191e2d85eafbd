// The CUDA side of the CUDA-frame tests, on one of two drivers:
//   - in CI, a fake driver: host memory stands in for the GPU's (memfd-backed "allocations" that
//     OpenCL imports by mapping the same pages), so that every copy, lookup and lifetime rule
//     runs against PoCL and the results are real bytes;
//   - with CLVF_TEST_CUDA=real (the NVIDIA machine), libcuda.so.1 and a real context.
// Both count the driver calls the tests assert on (plane copies, synchronisations, semaphore
// signals and waits). The fake also stands in for OpenCL's semaphores (PoCL has none): binary
// semaphores whose every wait must follow a signal and every signal a wait, on either side; a
// call out of that order is counted in semaphore_misuse and fails.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "interop/cuda/cuda_driver.hpp"
#include "interop/cuda/cuda_semaphore.hpp"

namespace clvf::detail::test {

class CudaEnv {
 public:
  CudaEnv();
  ~CudaEnv();
  bool real() const { return real_; }
  void* context() const { return context_; }
  // Memory as a decoder's pool holds it (cuMemAlloc: not exportable).
  cuda::CUdeviceptr alloc_plain(size_t bytes);
  void free_plain(cuda::CUdeviceptr ptr);
  void upload(cuda::CUdeviceptr dst, const void* src, size_t bytes);
  void download(void* dst, cuda::CUdeviceptr src, size_t bytes);
  // Calls through clvf since the last reset: plane copies (cuMemcpy2D, cuMemcpy2DAsync),
  // cuCtxSynchronize, cuStreamSynchronize, CUDA's semaphore signals and waits.
  static int copies, syncs, stream_syncs, cuda_signals, cuda_waits;
  static void reset_counts() { copies = syncs = stream_syncs = cuda_signals = cuda_waits = 0; }
  // The fake's OpenCL semaphore entry points (installed unless real()).
  static const cuda::ClSemaphoreApi& fake_semaphores();
  // The fake's semaphores: calls out of order, and those made and not yet released on each side.
  static int semaphore_misuse, live_cl_semaphores, live_cuda_semaphores;

 private:
  bool real_ = false;
  void* context_ = nullptr;
  void* lib_ = nullptr;
  cuda::Driver counting_{};
};

}  // namespace clvf::detail::test
