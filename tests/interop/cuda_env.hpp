// The CUDA side of the CUDA-frame tests, on one of two drivers:
//   - in CI, a fake driver: host memory stands in for the GPU's (memfd-backed "allocations" that
//     OpenCL imports by mapping the same pages), so that every copy, lookup and lifetime rule
//     runs against PoCL and the results are real bytes;
//   - with CLVF_TEST_CUDA=real (the NVIDIA machine), libcuda.so.1 and a real context.
// Both count the driver calls the tests assert on (plane copies, context synchronisations).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "interop/cuda/cuda_driver.hpp"

namespace clvf::test {

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
  // Calls of cuMemcpy2D and cuCtxSynchronize through clvf since the last reset.
  static int copies, syncs;
  static void reset_counts() { copies = syncs = 0; }

 private:
  bool real_ = false;
  void* context_ = nullptr;
  void* lib_ = nullptr;
  cuda::Driver counting_{};
};

}  // namespace clvf::test
