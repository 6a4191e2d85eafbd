// The kernel checker for NL-means denoise: every storage kind x format on random sizes (1x1,
// odd, across tile edges, 1080p) and random strengths, patch and research sizes and plane masks,
// against the float64 reference. An output sample may differ from the exact value only by
// rounding; outputs are poisoned beforehand and padding around every plane must stay untouched.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include "checker_support.hpp"
#include "clvf/clvf.h"
#include "reference_denoise.hpp"
#include "test_frames.hpp"

namespace clvf::detail::test {
namespace {

struct Case {
  clvf_pixel_format format;
  int w, h;
  double s, sc;
  int p, pc, r, rc;
  unsigned planes;
  int sigma;  // noise on a smooth picture; 0: uniformly random samples
  int weighting = 0;
};

std::string describe(const Case& k) {
  return fmt::format("{} {}x{} s={:.2f} sc={:.2f} p={} pc={} r={} rc={} planes={:#x} sigma={} wmode={}",
                     k.format == CLVF_PIX_NV12 ? "nv12" : "yuv420p", k.w, k.h, k.s, k.sc, k.p, k.pc, k.r, k.rc,
                     k.planes, k.sigma, k.weighting);
}

std::vector<Case> make_cases(clvf_storage storage) {
  std::mt19937_64 rng(checker_seed() + 7 * storage);
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto odd = [&](int max) { return 1 + 2 * uniform(0, max / 2); };
  std::vector<Case> cases = {
      {CLVF_PIX_YUV420P, 1, 1, 5, 0, 7, 0, 15, 0, 0xf, 10},
      {CLVF_PIX_NV12, 2, 1, 3, 0, 3, 0, 5, 0, 0xf, 10},
      {CLVF_PIX_YUV420P, 1, 5, 8, 0, 5, 0, 7, 0, 0xf, 10},
      {CLVF_PIX_NV12, 65, 17, 4, 9, 7, 3, 9, 5, 0xf, 8},       // a tile and one column / row more
      {CLVF_PIX_NV12, 41, 29, 5, 5, 5, 5, 9, 9, 0xf, 10},      // chroma's settings given, luma's
      {CLVF_PIX_YUV420P, 130, 33, 30, 0, 3, 0, 3, 0, 0xf, 0},  // strong, on noise
      {CLVF_PIX_NV12, 20, 18, 6, 0, 21, 0, 9, 0, 0xf, 12},     // patch wider than the plane
      {CLVF_PIX_YUV420P, 37, 23, 5, 0, 5, 0, 9, 0, 0x1, 10},   // luma only; chroma copied
      {CLVF_PIX_NV12, 37, 23, 5, 0, 5, 0, 9, 0, 0x6, 10},      // chroma only
  };
  const int count = small_only() ? 4 : 24, max = small_only() ? 40 : 160;
  const int max_p = small_only() ? 5 : 9, max_r = small_only() ? 7 : 15;
  for (int i = 0; i < count; ++i) {
    Case k{};
    k.format = i % 2 ? CLVF_PIX_NV12 : CLVF_PIX_YUV420P;
    k.w = uniform(1, max), k.h = uniform(1, max);
    k.s = std::uniform_real_distribution<double>(1, 12)(rng);
    k.sc = uniform(0, 1) ? 0 : std::uniform_real_distribution<double>(1, 12)(rng);
    k.p = odd(max_p), k.r = odd(max_r);
    k.pc = uniform(0, 1) ? 0 : odd(max_p), k.rc = uniform(0, 1) ? 0 : odd(max_r);
    k.planes = uniform(0, 3) ? 0xf : unsigned(uniform(0, 15));
    k.sigma = uniform(0, 4) ? uniform(2, 25) : 0;
    k.weighting = i % 3 ? 0 : uniform(1, 3);
    cases.push_back(k);
  }
  if (!small_only()) {
    cases.push_back({CLVF_PIX_NV12, 1920, 1080, 4, 0, 3, 0, 5, 0, 0xf, 8});
    cases.push_back({CLVF_PIX_NV12, 50, 40, 6, 0, 21, 0, 25, 0, 0xf, 12});
    cases.push_back({CLVF_PIX_YUV420P, 321, 257, 5, 3, 7, 5, 15, 9, 0xf, 10});
    cases.push_back({CLVF_PIX_NV12, 16384, 4, 5, 0, 3, 0, 5, 0, 0xf, 10});  // the widest frames (16K)
  }
  return cases;
}

// A smooth picture (gradients and a disc) plus Gaussian noise of sigma, or random samples.
void fill_plane(RefPlane& pl, int sigma, std::mt19937& rng) {
  pl.data.resize(size_t(pl.w) * pl.h * pl.channels);
  std::normal_distribution<double> noise(0.0, sigma ? sigma : 1);
  for (int y = 0; y < pl.h; ++y)
    for (int x = 0; x < pl.w; ++x)
      for (int c = 0; c < pl.channels; ++c) {
        uint8_t& v = pl.data[(size_t(y) * pl.w + x) * pl.channels + c];
        if (!sigma) {
          v = static_cast<uint8_t>(rng());
          continue;
        }
        const double dx = x - pl.w / 2.0, dy = y - pl.h / 3.0;
        const double base = 60 + 100.0 * x / std::max(pl.w, 1) + 40 * c + (dx * dx + dy * dy < pl.w * pl.h / 9.0 ? 50 : 0);
        v = static_cast<uint8_t>(std::clamp(std::lround(base + noise(rng)), 0L, 255L));
      }
}

class DenoiseChecker : public StorageChecker {};

TEST_P(DenoiseChecker, MatchesFloat64Reference) {
  const clvf_storage storage = GetParam();
  std::mt19937 rng(static_cast<unsigned>(checker_seed()));
  int checked = 0;
  for (const Case& k : make_cases(storage)) {
    SCOPED_TRACE(describe(k));
    clvf_denoise_params p;
    clvf_denoise_params_default(&p);
    p.format = k.format, p.width = k.w, p.height = k.h;
    p.strength = k.s, p.strength_chroma = k.sc;
    p.patch_size = k.p, p.patch_size_chroma = k.pc, p.research_size = k.r, p.research_size_chroma = k.rc;
    p.planes = k.planes;
    p.weighting = clvf_denoise_weighting(k.weighting);
    p.src_storage = p.dst_storage = storage;
    clvf_denoise* dn = nullptr;
    const clvf_status st = clvf_denoise_create(handle_, &p, &dn);
    if (expect_unsupported_nv12_images(storage, k.format, st)) continue;
    ASSERT_EQ(st, CLVF_OK) << clvf_last_error();

    auto src = plane_shapes(k.format, k.w, k.h);
    for (auto& pl : src) fill_plane(pl, k.sigma, rng);
    std::vector<std::vector<double>> refs;
    std::vector<RefPlane> poison = src;
    for (size_t i = 0; i < src.size(); ++i) {
      const bool chroma = i > 0;
      const bool filtered = k.planes & (k.format == CLVF_PIX_NV12 && chroma ? 0x6u : 1u << i);
      RefNlmeans rn;
      rn.strength = chroma && k.sc ? k.sc : k.s;
      rn.patch_size = chroma && k.pc ? k.pc : k.p;
      rn.research_size = filtered ? (chroma && k.rc ? k.rc : k.r) : 1;
      rn.weighting = k.weighting;
      refs.push_back(reference_nlmeans(src[i], rn));
      for (size_t n = 0; n < refs.back().size(); ++n) poison[i].data[n] = refs.back()[n] < 128 ? 255 : 0;
    }
    TestFrame in(device_->context(), device_->queue(), storage, src);
    TestFrame out(device_->context(), device_->queue(), storage, src);
    in.fill(src);
    out.fill(poison);
    ASSERT_EQ(clvf_denoise_process(dn, &in.frame(), &out.frame()), CLVF_OK) << clvf_last_error();
    clvf_denoise_release(dn);

    bool padding_intact = false;
    const auto got = out.read(&padding_intact);
    EXPECT_TRUE(padding_intact) << "bytes outside the destination planes were written";
    for (size_t i = 0; i < got.size(); ++i) {
      double max_err = 0, changed = 0;
      size_t bad = 0, first_bad = 0;
      for (size_t n = 0; n < got[i].data.size(); ++n) {
        const double err = std::abs(got[i].data[n] - refs[i][n]);
        max_err = std::max(max_err, err);
        changed += got[i].data[n] != src[i].data[n];
        if (err > 0.5 + 0.01 && bad++ == 0) first_bad = n;
      }
      EXPECT_EQ(bad, 0u) << "plane " << i << ": " << bad << " samples off by more than rounding, max error "
                         << max_err << ", first at sample " << first_bad << " (got " << int(got[i].data[first_bad])
                         << ", exact " << refs[i][first_bad] << ")";
    }
    ++checked;
  }
  RecordProperty("cases_checked", checked);
  EXPECT_GT(checked, 0);
}

// Streams through send/receive: random temporal radii (0 to 3), stream lengths (shorter than the
// window too) and sizes; each output against the reference over the frames that exist around it.
TEST_P(DenoiseChecker, StreamsMatchFloat64Reference) {
  const clvf_storage storage = GetParam();
  std::mt19937_64 rng(checker_seed() + 100 + storage);
  std::mt19937 fill_rng(static_cast<unsigned>(checker_seed()) + 1);
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const int count = small_only() ? 3 : 8, max = small_only() ? 24 : 90;
  for (int n = 0; n < count; ++n) {
    const clvf_pixel_format format = n % 2 ? CLVF_PIX_NV12 : CLVF_PIX_YUV420P;
    const int w = uniform(1, max), h = uniform(1, max), t = n % 4, frames = uniform(1, 6);
    const int p = 1 + 2 * uniform(0, 2), r = 1 + 2 * uniform(0, small_only() ? 2 : 4);
    const double s = std::uniform_real_distribution<double>(2, 12)(rng);
    const unsigned planes = n == 5 ? 0x1u : 0xfu;
    SCOPED_TRACE(fmt::format("{} {}x{} t={} frames={} s={:.2f} p={} r={} planes={:#x}",
                             format == CLVF_PIX_NV12 ? "nv12" : "yuv420p", w, h, t, frames, s, p, r, planes));
    clvf_denoise_params dp;
    clvf_denoise_params_default(&dp);
    dp.format = format, dp.width = w, dp.height = h, dp.strength = s, dp.patch_size = p, dp.research_size = r;
    dp.temporal_radius = t, dp.planes = planes;
    dp.src_storage = dp.dst_storage = storage;
    clvf_denoise* dn = nullptr;
    const clvf_status st = clvf_denoise_create(handle_, &dp, &dn);
    if (expect_unsupported_nv12_images(storage, format, st)) continue;
    ASSERT_EQ(st, CLVF_OK) << clvf_last_error();

    // One picture, a fresh noise per frame (what temporal search is for).
    std::vector<std::vector<RefPlane>> inputs(frames, plane_shapes(format, w, h));
    for (auto& f : inputs)
      for (auto& pl : f) fill_plane(pl, 10, fill_rng);
    std::vector<std::unique_ptr<TestFrame>> sources;
    std::vector<std::vector<RefPlane>> outputs;
    auto receive_all = [&] {
      for (;;) {
        TestFrame out(device_->context(), device_->queue(), storage, plane_shapes(format, w, h));
        std::vector<RefPlane> poison = plane_shapes(format, w, h);
        for (auto& pl : poison) pl.data.assign(size_t(pl.w) * pl.h * pl.channels, 0xA5);
        out.fill(poison);
        int got = 0;
        ASSERT_EQ(clvf_denoise_receive(dn, &out.frame(), &got), CLVF_OK) << clvf_last_error();
        if (!got) return;
        bool padding_intact = false;
        outputs.push_back(out.read(&padding_intact));
        EXPECT_TRUE(padding_intact);
      }
    };
    for (const auto& f : inputs) {
      sources.push_back(std::make_unique<TestFrame>(device_->context(), device_->queue(), storage, f));
      sources.back()->fill(f);
      ASSERT_EQ(clvf_denoise_send(dn, &sources.back()->frame()), CLVF_OK) << clvf_last_error();
      receive_all();
    }
    ASSERT_EQ(clvf_denoise_send(dn, nullptr), CLVF_OK) << clvf_last_error();
    receive_all();
    clvf_denoise_release(dn);
    ASSERT_EQ(outputs.size(), size_t(frames));
    for (int m = 0; m < frames; ++m)
      for (size_t i = 0; i < outputs[m].size(); ++i) {
        const bool filtered = planes & (format == CLVF_PIX_NV12 && i > 0 ? 0x6u : 1u << i);
        std::vector<const RefPlane*> window{&inputs[m][i]};
        for (int k = m - t; k <= m + t && filtered; ++k)
          if (k != m && k >= 0 && k < frames) window.push_back(&inputs[k][i]);
        RefNlmeans rn;
        rn.strength = s, rn.patch_size = p, rn.research_size = filtered ? r : 1;
        const auto ref = reference_nlmeans(window, rn);
        size_t bad = 0, first_bad = 0;
        for (size_t k = 0; k < ref.size(); ++k)
          if (std::abs(outputs[m][i].data[k] - ref[k]) > 0.5 + 0.01 && bad++ == 0) first_bad = k;
        EXPECT_EQ(bad, 0u) << "frame " << m << " plane " << i << ": " << bad << " samples off, first " << first_bad
                           << " (got " << int(outputs[m][i].data[first_bad]) << ", exact " << ref[first_bad] << ")";
      }
  }
}

CLVF_INSTANTIATE_STORAGES(DenoiseChecker);

}  // namespace
}  // namespace clvf::detail::test
