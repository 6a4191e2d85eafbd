// Zero copy shown, not inferred from equal outputs: on a device that shares host memory (PoCL),
// 100 frames of each operation on host frames run no staged copy and map every destination at
// the frame's own memory; with CLVF_NO_ZERO_COPY=1 (the discrete-GPU path) every plane goes
// through staging both ways and nothing is mapped in place. Counted by runtime/frame_planes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "clvf/clvf.h"
#include "host_nv12.hpp"
#include "runtime/frame_planes.hpp"

namespace clvf::detail::test {
namespace {

constexpr int kW = 64, kH = 36, kFrames = 100;

struct Counts {
  uint64_t staged_uploads, staged_downloads, direct_maps, direct_maps_elsewhere;
  static Counts now() {
    const HostTransfers& t = host_transfers();
    return {t.staged_uploads, t.staged_downloads, t.direct_maps, t.direct_maps_elsewhere};
  }
  Counts operator-(const Counts& o) const {
    return {staged_uploads - o.staged_uploads, staged_downloads - o.staged_downloads, direct_maps - o.direct_maps,
            direct_maps_elsewhere - o.direct_maps_elsewhere};
  }
};

class ZeroCopy : public ::testing::TestWithParam<bool> {  // param: staging forced
 protected:
  void SetUp() override {
    // The device reads CLVF_NO_ZERO_COPY when it opens; a run may have set it for the process.
    const char* outer = std::getenv("CLVF_NO_ZERO_COPY");
    const std::string saved = outer ? outer : "";
    setenv("CLVF_NO_ZERO_COPY", GetParam() ? "1" : "0", 1);
    const char* spec = std::getenv("CLVF_TEST_DEVICE");
    const clvf_status st = clvf_device_open(spec && *spec ? spec : "pocl", &device_);
    if (outer) setenv("CLVF_NO_ZERO_COPY", saved.c_str(), 1);
    else unsetenv("CLVF_NO_ZERO_COPY");
    ASSERT_EQ(st, CLVF_OK) << clvf_last_error();
    cl_context context = nullptr;
    cl_device_id id = nullptr;
    ASSERT_EQ(clvf_device_handles(device_, &context, &id, nullptr), CLVF_OK);
    cl_bool unified = CL_FALSE;
    clGetDeviceInfo(id, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, nullptr);
    if (!unified && !GetParam()) GTEST_SKIP() << "the device does not share host memory";
  }
  void TearDown() override { clvf_device_release(device_); }

  // Runs `process` on kFrames frames and checks what moved: two planes each way per frame.
  void expect_transfers(const char* name, const std::function<clvf_status(const clvf_frame*, const clvf_frame*)>& process) {
    SCOPED_TRACE(name);
    HostNv12 src(kW, kH), dst(kW, kH);
    const Counts before = Counts::now();
    for (int i = 0; i < kFrames; ++i) ASSERT_EQ(process(&src.frame, &dst.frame), CLVF_OK) << clvf_last_error();
    const Counts d = Counts::now() - before;
    const uint64_t planes = 2 * kFrames;
    if (GetParam()) {
      EXPECT_EQ(d.staged_uploads, planes);
      EXPECT_EQ(d.staged_downloads, planes);
      EXPECT_EQ(d.direct_maps, 0u);
    } else {
      EXPECT_EQ(d.staged_uploads + d.staged_downloads, 0u) << "a staged copy ran on a device sharing host memory";
      EXPECT_EQ(d.direct_maps, planes);
      EXPECT_EQ(d.direct_maps_elsewhere, 0u) << "the driver mapped destinations away from their memory";
    }
    ++checked_;
  }
  clvf_device* device_ = nullptr;
  int checked_ = 0;
};

TEST_P(ZeroCopy, EveryOperationOnHostFrames) {
  // What the device tells callers (the filters free a staged source once it is submitted).
  EXPECT_EQ(clvf_device_copies_host_frames(device_), GetParam() ? 1 : 0);
  clvf_scale_params sp;
  clvf_scale_params_default(&sp);
  sp.format = CLVF_PIX_NV12, sp.src_width = sp.dst_width = kW, sp.src_height = sp.dst_height = kH;
  clvf_scale* scale = nullptr;
  ASSERT_EQ(clvf_scale_create(device_, &sp, &scale), CLVF_OK) << clvf_last_error();
  expect_transfers("scale", [&](const clvf_frame* s, const clvf_frame* d) { return clvf_scale_process(scale, s, d); });
  clvf_scale_release(scale);

  clvf_colorspace_params cp;
  clvf_colorspace_params_default(&cp);
  cp.src_format = cp.dst_format = CLVF_PIX_NV12, cp.width = kW, cp.height = kH;
  cp.src_matrix = CLVF_MATRIX_SMPTE170M, cp.dst_matrix = CLVF_MATRIX_BT709;
  clvf_colorspace* colorspace = nullptr;
  ASSERT_EQ(clvf_colorspace_create(device_, &cp, &colorspace), CLVF_OK) << clvf_last_error();
  expect_transfers("colorspace",
                   [&](const clvf_frame* s, const clvf_frame* d) { return clvf_colorspace_process(colorspace, s, d); });
  clvf_colorspace_release(colorspace);

  clvf_denoise_params dp;
  clvf_denoise_params_default(&dp);
  dp.format = CLVF_PIX_NV12, dp.width = kW, dp.height = kH;
  clvf_denoise* denoise = nullptr;
  ASSERT_EQ(clvf_denoise_create(device_, &dp, &denoise), CLVF_OK) << clvf_last_error();
  expect_transfers("denoise", [&](const clvf_frame* s, const clvf_frame* d) { return clvf_denoise_process(denoise, s, d); });
  clvf_denoise_release(denoise);
  EXPECT_EQ(checked_, 3);
}

INSTANTIATE_TEST_SUITE_P(Storage, ZeroCopy, ::testing::Values(false, true),
                         [](const auto& info) { return std::string(info.param ? "staged" : "shared"); });

}  // namespace
}  // namespace clvf::detail::test
