// The kernel checker for scale: every storage kind x format x algorithm on random inputs and
// random sizes (1x1, odd, wide, tall, up and down), against the float64 reference. An output
// sample may differ from the exact value only by rounding (|out - ref| <= 0.5 + float slack);
// outputs are poisoned beforehand with the value farthest from the reference, and padding
// around every plane must stay untouched.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>

#include "clvf/clvf.h"
#include "reference_scale.hpp"
#include "runtime/device.hpp"
#include "checker_support.hpp"
#include "test_frames.hpp"

namespace clvf::test {
namespace {

struct Case {
  clvf_pixel_format format;
  int sw, sh, dw, dh;
  clvf_scale_algorithm algorithm;
  double b, c;
  clvf_chroma_location chroma;
  int taps = 3;
};

const char* algorithm_name(clvf_scale_algorithm a) {
  static const char* names[] = {"?", "bilinear", "bicubic", "point", "lanczos", "spline16", "spline36", "spline64", "area"};
  return a >= 1 && a <= 8 ? names[a] : "?";
}

std::string describe(const Case& k) {
  return fmt::format("{} {}x{} -> {}x{} {} B={:.3f} C={:.3f} taps={} chroma={}",
                     k.format == CLVF_PIX_NV12 ? "nv12" : "yuv420p", k.sw, k.sh, k.dw, k.dh, algorithm_name(k.algorithm),
                     k.b, k.c, k.taps, int(k.chroma));
}

std::vector<Case> make_cases(clvf_storage storage) {
  std::mt19937_64 rng(checker_seed() + storage);
  const int max = small_only() ? 40 : 300;
  auto size = [&] { return std::uniform_int_distribution<int>(1, max)(rng); };
  std::vector<Case> cases;
  const int fixed[][4] = {{1, 1, 1, 1}, {1, 1, 7, 5}, {9, 7, 1, 1}, {2, 2, 3, 3}, {33, 3, 5, 21}, {3, 33, 40, 2}};
  for (auto f : fixed) cases.push_back({CLVF_PIX_YUV420P, f[0], f[1], f[2], f[3], CLVF_SCALE_BICUBIC, 1.0 / 3, 1.0 / 3, CLVF_CHROMA_LEFT});
  // Every algorithm on tiny planes, where mirrored edges fold several times.
  for (int a = 1; a <= 8; ++a)
    cases.push_back({a % 2 ? CLVF_PIX_NV12 : CLVF_PIX_YUV420P, 2 + a % 3, 1 + a % 2, 9 + a, 4 + a % 4,
                     clvf_scale_algorithm(a), 0.2, 0.4, clvf_chroma_location(1 + a % 3), 1 + a % 5});
  const int random_count = small_only() ? 16 : 40;
  for (int i = 0; i < random_count; ++i) {
    Case k{};
    k.format = i % 2 ? CLVF_PIX_NV12 : CLVF_PIX_YUV420P;
    k.sw = size(), k.sh = size(), k.dw = size(), k.dh = size();
    k.algorithm = clvf_scale_algorithm(1 + i % 8);
    k.taps = std::uniform_int_distribution<int>(1, 8)(rng);
    k.b = std::uniform_real_distribution<double>(0, 1)(rng);
    k.c = std::uniform_real_distribution<double>(0, 1)(rng);
    k.chroma = clvf_chroma_location(1 + i % 3);
    cases.push_back(k);
  }
  if (!small_only()) {
    cases.push_back({CLVF_PIX_NV12, 1920, 1080, 1280, 720, CLVF_SCALE_BICUBIC, 0, 0.6, CLVF_CHROMA_LEFT});
    cases.push_back({CLVF_PIX_YUV420P, 640, 360, 1921, 1079, CLVF_SCALE_BILINEAR, 0, 0, CLVF_CHROMA_CENTER});
    cases.push_back({CLVF_PIX_NV12, 3840, 2160, 1280, 720, CLVF_SCALE_LANCZOS, 0, 0, CLVF_CHROMA_TOPLEFT, 4});
    cases.push_back({CLVF_PIX_YUV420P, 1920, 1080, 97, 61, CLVF_SCALE_AREA, 0, 0, CLVF_CHROMA_LEFT});
  }
  return cases;
}

class ScaleChecker : public StorageChecker {};

TEST_P(ScaleChecker, MatchesFloat64Reference) {
  const clvf_storage storage = GetParam();
  std::mt19937 rng(static_cast<unsigned>(checker_seed()));
  int checked = 0;
  for (const Case& k : make_cases(storage)) {
    SCOPED_TRACE(describe(k));
    clvf_scale_params p;
    clvf_scale_params_default(&p);
    p.format = k.format;
    p.src_width = k.sw, p.src_height = k.sh, p.dst_width = k.dw, p.dst_height = k.dh;
    p.algorithm = k.algorithm, p.param_b = k.b, p.param_c = k.c, p.taps = k.taps, p.chroma_location = k.chroma;
    p.src_storage = p.dst_storage = storage;
    clvf_scale* scale = nullptr;
    const clvf_status st = clvf_scale_create(handle_, &p, &scale);
    if (expect_unsupported_nv12_images(storage, k.format, st)) continue;
    ASSERT_EQ(st, CLVF_OK) << clvf_last_error();

    auto src = plane_shapes(k.format, k.sw, k.sh);
    for (auto& pl : src) {
      pl.data.resize(size_t(pl.w) * pl.h * pl.channels);
      for (auto& v : pl.data) v = static_cast<uint8_t>(rng());
    }
    auto dst_shapes = plane_shapes(k.format, k.dw, k.dh);
    std::vector<std::vector<double>> refs;
    std::vector<RefPlane> poison = dst_shapes;
    for (size_t i = 0; i < src.size(); ++i) {
      RefScale rs;
      rs.algorithm = k.algorithm, rs.b = k.b, rs.c = k.c, rs.taps = k.taps;
      rs.luma_src_w = k.sw, rs.luma_src_h = k.sh, rs.luma_dst_w = k.dw, rs.luma_dst_h = k.dh;
      if (i > 0) {
        rs.subsampling = 2;
        rs.siting_x = k.chroma == CLVF_CHROMA_CENTER ? 0.5 : 0.0;
        rs.siting_y = k.chroma == CLVF_CHROMA_TOPLEFT ? 0.0 : 0.5;
      }
      refs.push_back(reference_scale(src[i], dst_shapes[i].w, dst_shapes[i].h, rs));
      for (double r : refs.back()) poison[i].data.push_back(r < 128 ? 255 : 0);
    }

    TestFrame in(device_->context(), device_->queue(), storage, src);
    TestFrame out(device_->context(), device_->queue(), storage, dst_shapes);
    in.fill(src);
    out.fill(poison);
    ASSERT_EQ(clvf_scale_process(scale, &in.frame(), &out.frame()), CLVF_OK) << clvf_last_error();
    clvf_scale_release(scale);

    bool padding_intact = false;
    const auto got = out.read(&padding_intact);
    EXPECT_TRUE(padding_intact) << "bytes outside the destination planes were written";
    for (size_t i = 0; i < got.size(); ++i) {
      double max_err = 0;
      size_t bad = 0, first_bad = 0;
      for (size_t n = 0; n < got[i].data.size(); ++n) {
        const double err = std::abs(got[i].data[n] - std::clamp(refs[i][n], 0.0, 255.0));
        max_err = std::max(max_err, err);
        if (err > 0.5 + 0.02 && bad++ == 0) first_bad = n;
      }
      EXPECT_EQ(bad, 0u) << "plane " << i << ": " << bad << " samples off by more than rounding, max error "
                         << max_err << ", first at sample " << first_bad << " (got "
                         << int(got[i].data[first_bad]) << ", exact " << refs[i][first_bad] << ")";
    }
    ++checked;
  }
  RecordProperty("cases_checked", checked);
  EXPECT_GT(checked, 0);
}

CLVF_INSTANTIATE_STORAGES(ScaleChecker);

}  // namespace
}  // namespace clvf::test
