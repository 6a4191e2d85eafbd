// Heap allocations per frame after planning, counted: this binary replaces operator new, so every
// C++ allocation of the library (and of anything C++ in the process) between two frames is seen.
// Each operation and storage runs warm-up frames, then 100 counted ones. What is asserted is what
// docs/architecture.md states: no C++ heap allocation per frame after planning, for every
// operation on host frames used in place and staged (and none that grows with the stream: the
// second 50 frames allocate exactly as the first 50). OpenCL objects (events, the cl_mem wrapper of a host plane used in place) are
// the driver's allocations, not counted here. A separate binary: sanitizers replace operator new
// too, so the other test binaries keep theirs.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <new>
#include <string>
#include <vector>

#include "clvf/clvf.h"
#include "host_nv12.hpp"

namespace {
std::atomic<bool> counting{false};
std::atomic<uint64_t> allocations{0};
void* allocate(std::size_t n) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t n) { return allocate(n); }
void* operator new[](std::size_t n) { return allocate(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return allocate(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace {

constexpr int kW = 64, kH = 36, kWarmUp = 8, kHalf = 50;

// The bound per frame for each case, as docs/architecture.md gives them.
struct Case {
  const char* name;
  unsigned per_frame;
  int w = kW, h = kH;
};

class Allocations : public ::testing::TestWithParam<bool> {  // param: staging forced
 protected:
  void SetUp() override {
    setenv("CLVF_NO_ZERO_COPY", GetParam() ? "1" : "0", 1);
    const char* spec = std::getenv("CLVF_TEST_DEVICE");
    ASSERT_EQ(clvf_device_open(spec && *spec ? spec : "pocl", &device_), CLVF_OK) << clvf_last_error();
  }
  void TearDown() override { clvf_device_release(device_); }

  void count(const Case& c, const std::function<clvf_status(const clvf_frame*, const clvf_frame*)>& frame) {
    SCOPED_TRACE(c.name);
    clvf::detail::test::HostNv12 src(c.w, c.h), dst(c.w, c.h);
    for (int i = 0; i < kWarmUp; ++i) ASSERT_EQ(frame(&src.frame, &dst.frame), CLVF_OK) << clvf_last_error();
    uint64_t half[2];
    for (uint64_t& h : half) {
      allocations = 0;
      counting = true;
      for (int i = 0; i < kHalf; ++i) {
        const clvf_status st = frame(&src.frame, &dst.frame);
        if (st != CLVF_OK) {
          counting = false;
          FAIL() << clvf_last_error();
        }
      }
      counting = false;
      h = allocations;
    }
    std::printf("%-34s %s: %.2f C++ allocations per frame\n", c.name, GetParam() ? "staged" : "shared",
                double(half[0] + half[1]) / (2 * kHalf));
    EXPECT_EQ(half[0], half[1]) << "allocations grow with the stream";
    EXPECT_LE(half[0] + half[1], uint64_t(c.per_frame) * 2 * kHalf);
    ++checked_;
  }
  clvf_device* device_ = nullptr;
  int checked_ = 0;
};

TEST_P(Allocations, EveryOperationOnHostFrames) {
  clvf_scale_params sp;
  clvf_scale_params_default(&sp);
  sp.format = CLVF_PIX_NV12, sp.src_width = sp.dst_width = kW, sp.src_height = sp.dst_height = kH;
  clvf_scale* scale = nullptr;
  ASSERT_EQ(clvf_scale_create(device_, &sp, &scale), CLVF_OK) << clvf_last_error();
  count({"scale process", 0}, [&](auto s, auto d) { return clvf_scale_process(scale, s, d); });
  count({"scale submit/complete", 0}, [&](auto s, auto d) {
    const clvf_status st = clvf_scale_submit(scale, s, d);
    return st != CLVF_OK ? st : clvf_scale_complete(scale);
  });
  clvf_scale_release(scale);

  // Planes of 1 MiB and more are copied by several threads (runtime/copy_pool).
  sp.src_width = sp.dst_width = 1920, sp.src_height = sp.dst_height = 1080;
  ASSERT_EQ(clvf_scale_create(device_, &sp, &scale), CLVF_OK) << clvf_last_error();
  count({"scale 1080p", 0, 1920, 1080}, [&](auto s, auto d) { return clvf_scale_process(scale, s, d); });
  clvf_scale_release(scale);
  sp.src_width = sp.dst_width = kW, sp.src_height = sp.dst_height = kH;

  sp.dst_format = CLVF_PIX_NV12, sp.src_matrix = CLVF_MATRIX_SMPTE170M, sp.dst_matrix = CLVF_MATRIX_BT709;
  ASSERT_EQ(clvf_scale_create(device_, &sp, &scale), CLVF_OK) << clvf_last_error();
  count({"scale + convert", 0}, [&](auto s, auto d) { return clvf_scale_process(scale, s, d); });
  clvf_scale_release(scale);

  clvf_colorspace_params cp;
  clvf_colorspace_params_default(&cp);
  cp.src_format = cp.dst_format = CLVF_PIX_NV12, cp.width = kW, cp.height = kH;
  cp.src_matrix = CLVF_MATRIX_SMPTE170M, cp.dst_matrix = CLVF_MATRIX_BT709;
  clvf_colorspace* colorspace = nullptr;
  ASSERT_EQ(clvf_colorspace_create(device_, &cp, &colorspace), CLVF_OK) << clvf_last_error();
  count({"colorspace", 0}, [&](auto s, auto d) { return clvf_colorspace_process(colorspace, s, d); });
  clvf_colorspace_release(colorspace);

  clvf_denoise_params dp;
  clvf_denoise_params_default(&dp);
  dp.format = CLVF_PIX_NV12, dp.width = kW, dp.height = kH, dp.patch_size = 3, dp.research_size = 5;
  for (int t : {0, 1}) {
    dp.temporal_radius = t;
    clvf_denoise* denoise = nullptr;
    ASSERT_EQ(clvf_denoise_create(device_, &dp, &denoise), CLVF_OK) << clvf_last_error();
    count({t ? "denoise t=1 send/receive" : "denoise send/receive", 0}, [&](auto s, auto d) {
      int got = 0;
      clvf_status st = clvf_denoise_send(denoise, s);
      if (st == CLVF_OK) st = clvf_denoise_receive(denoise, d, &got);
      return st;
    });
    clvf_denoise_release(denoise);
  }

  clvf_stream in{};
  in.version = CLVF_API_VERSION, in.width = kW, in.height = kH, in.format = CLVF_PIX_NV12;
  clvf_chain* chain = nullptr;
  ASSERT_EQ(clvf_chain_create(device_, "denoise_clvf=p=3:r=5,scale_clvf=w=64:h=36:matrix=bt709", &in,
                              CLVF_STORAGE_HOST, CLVF_STORAGE_HOST, &chain),
            CLVF_OK)
      << clvf_last_error();
  count({"chain denoise,scale", 0}, [&](auto s, auto d) {
    int got = 0;
    return clvf_chain_process(chain, s, d, &got);
  });
  clvf_chain_release(chain);
  EXPECT_EQ(checked_, 8);
}

INSTANTIATE_TEST_SUITE_P(Storage, Allocations, ::testing::Values(false, true),
                         [](const auto& info) { return std::string(info.param ? "staged" : "shared"); });

}  // namespace
