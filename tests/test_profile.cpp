// Kernel times: recorded per kernel and plane when CLVF_PROFILE=1 makes clvf's queue a profiling
// one, absent otherwise.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "clvf/clvf.h"
#include "runtime/profile.hpp"

namespace {

// identity: with a conversion asked for that changes nothing (NV12 to NV12, BT.709 to BT.709).
std::string run_frames(int frames = 3, bool identity = false) {
  clvf_device* dev = nullptr;
  clvf_scale* scale = nullptr;
  const char* spec = std::getenv("CLVF_TEST_DEVICE");
  EXPECT_EQ(clvf_device_open(spec && *spec ? spec : "pocl", &dev), CLVF_OK) << clvf_last_error();
  clvf_scale_params p;
  clvf_scale_params_default(&p);
  p.format = CLVF_PIX_NV12;
  p.src_width = 64, p.src_height = 48, p.dst_width = 32, p.dst_height = 24;
  if (identity) p.dst_format = CLVF_PIX_NV12, p.src_matrix = p.dst_matrix = CLVF_MATRIX_BT709;
  EXPECT_EQ(clvf_scale_create(dev, &p, &scale), CLVF_OK) << clvf_last_error();
  std::vector<unsigned char> in(64 * 48 * 3 / 2, 100), out(32 * 24 * 3 / 2);
  clvf_frame a{}, b{};
  a.storage = b.storage = CLVF_STORAGE_HOST;
  a.planes[0] = {in.data(), nullptr, 0, 64};
  a.planes[1] = {in.data() + 64 * 48, nullptr, 0, 64};
  b.planes[0] = {out.data(), nullptr, 0, 32};
  b.planes[1] = {out.data() + 32 * 24, nullptr, 0, 32};
  for (int i = 0; i < frames; ++i) EXPECT_EQ(clvf_scale_process(scale, &a, &b), CLVF_OK) << clvf_last_error();
  std::string report = clvf_scale_profile(scale);
  clvf_scale_release(scale);
  clvf_device_release(dev);
  return report;
}

void expect_kernel_times(const char* scale_kernels, std::initializer_list<const char*> kernels) {
  ::setenv("CLVF_PROFILE", "1", 1);
  ::setenv("CLVF_SCALE_KERNELS", scale_kernels, 1);
  const std::string report = run_frames();
  ::unsetenv("CLVF_PROFILE");
  ::unsetenv("CLVF_SCALE_KERNELS");
  for (const char* kernel : kernels) {
    const auto at = report.find(kernel);
    ASSERT_NE(at, std::string::npos) << kernel << " missing from:\n" << report;
    EXPECT_NE(report.find("3 runs", at), std::string::npos) << report;
  }
}

// The last line: the frames, and the time a frame with none of the kernels running, a share of
// the time from the first kernel's start to the last's end. 100 frames of 2 kernels: the older
// kernels' spans are swept into a running total as they come (the report keeps no list that
// grows with the stream), the latest at the report.
TEST(Profile, DeviceIdleBetweenFrames) {
  ::setenv("CLVF_PROFILE", "1", 1);
  const std::string report = run_frames(100);
  ::unsetenv("CLVF_PROFILE");
  const auto at = report.find("device idle");
  ASSERT_NE(at, std::string::npos) << report;
  int frames = 0;
  double idle_ms = -1, share = -1, span_ms = -1;
  ASSERT_EQ(std::sscanf(report.c_str() + at, "device idle %d frames %lf ms a frame between kernels (%lf%% of %lf ms)",
                        &frames, &idle_ms, &share, &span_ms),
            4)
      << report;
  EXPECT_EQ(frames, 100);
  // One frame at a time: the host's wait and the next submission lie between every two frames.
  EXPECT_GT(idle_ms, 0.0);
  EXPECT_LT(idle_ms * frames, span_ms);
  EXPECT_NEAR(share, 100 * idle_ms * frames / span_ms, 0.5);  // as printed: 0.1 ms in 4 decimals
  EXPECT_NE(report.find("median"), std::string::npos) << report;
}

// The sweep behind the idle line, on spans worked out by hand: overlapping (two queues), nested,
// touching, and after a gap.
TEST(Profile, CoverageCountsOverlapsOnce) {
  clvf::detail::KernelProfile::Coverage c;
  for (auto [start, stop] : {std::pair<cl_ulong, cl_ulong>{100, 200}, {150, 260}, {160, 170}, {260, 300},
                             {400, 450}, {400, 420}, {700, 710}})
    c.add(start, stop);
  EXPECT_TRUE(c.any);
  EXPECT_EQ(c.first, 100u);
  EXPECT_EQ(c.end, 710u);
  EXPECT_EQ(c.busy, 200u + 50u + 10u);  // 100-300, 400-450, 700-710: idle 100 + 250
}

TEST(Profile, KernelTimesWhenAsked) {
  expect_kernel_times("gpu", {"scale_v plane 0", "scale_h plane 0", "scale_v plane 1", "scale_h plane 1"});
  expect_kernel_times("block", {"scale_block plane 0", "scale_block plane 1"});
  expect_kernel_times("phase", {"scale_phase plane 0", "scale_phase plane 1"});  // 64 -> 32: ratio 2
}

// A conversion that is the identity costs no second pass: only the scale's kernels run.
TEST(Profile, IdentityConversionRunsNoColourPass) {
  ::setenv("CLVF_PROFILE", "1", 1);
  const std::string report = run_frames(3, true);
  ::unsetenv("CLVF_PROFILE");
  EXPECT_NE(report.find("plane 0"), std::string::npos) << report;
  EXPECT_EQ(report.find("colour"), std::string::npos) << report;
}

TEST(Profile, NothingWhenNotAsked) {
  ::unsetenv("CLVF_PROFILE");
  EXPECT_EQ(run_frames(), "");
}

}  // namespace
