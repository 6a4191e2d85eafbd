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
#include "component_check.hpp"
#include "reference_colour.hpp"
#include "test_frames.hpp"

namespace clvf::detail::test {
namespace {

struct Case {
  clvf_pixel_format format;
  int sw, sh, dw, dh;
  clvf_scale_algorithm algorithm;
  double b, c;
  clvf_chroma_location chroma;
  int taps = 3;
  // A conversion in the same operation (dst_format 0: none).
  clvf_pixel_format dst_format{};
  clvf_matrix src_matrix = CLVF_MATRIX_BT709, dst_matrix = CLVF_MATRIX_BT709;
  clvf_range src_range = CLVF_RANGE_TV, dst_range = CLVF_RANGE_TV;
  clvf_dither dither = CLVF_DITHER_AUTO;
};

const char* algorithm_name(clvf_scale_algorithm a) {
  static const char* names[] = {"?", "bilinear", "bicubic", "point", "lanczos", "spline16", "spline36", "spline64", "area"};
  return a >= 1 && a <= 8 ? names[a] : "?";
}

std::string describe(const Case& k) {
  return fmt::format("{} {}x{} -> {}x{} {} B={:.3f} C={:.3f} taps={} chroma={}; to {} {}/{} -> {}/{} dither {}",
                     format_name(k.format), k.sw, k.sh, k.dw, k.dh, algorithm_name(k.algorithm), k.b, k.c, k.taps,
                     int(k.chroma), format_name(k.dst_format), int(k.src_matrix), int(k.src_range),
                     int(k.dst_matrix), int(k.dst_range), int(k.dither));
}

constexpr clvf_pixel_format kScaleFormats[] = {CLVF_PIX_NV12, CLVF_PIX_YUV420P, CLVF_PIX_YV12, CLVF_PIX_P010,
                                               CLVF_PIX_YUV444P};

std::vector<Case> make_cases(clvf_storage storage) {
  std::mt19937_64 rng(checker_seed() + storage);
  const int max = small_only() ? 40 : 300;
  auto size = [&] { return std::uniform_int_distribution<int>(1, max)(rng); };
  std::vector<Case> cases;
  const int fixed[][4] = {{1, 1, 1, 1}, {1, 1, 7, 5}, {9, 7, 1, 1}, {2, 2, 3, 3}, {33, 3, 5, 21}, {3, 33, 40, 2}};
  for (auto f : fixed) cases.push_back({CLVF_PIX_YUV420P, f[0], f[1], f[2], f[3], CLVF_SCALE_BICUBIC, 1.0 / 3, 1.0 / 3, CLVF_CHROMA_LEFT});
  // Every algorithm on tiny planes, where mirrored edges fold several times.
  for (int a = 1; a <= 8; ++a)
    cases.push_back({kScaleFormats[a % 5], 2 + a % 3, 1 + a % 2, 9 + a, 4 + a % 4, clvf_scale_algorithm(a), 0.2, 0.4,
                     clvf_chroma_location(1 + a % 3), 1 + a % 5});
  const int random_count = small_only() ? 16 : 40;
  for (int i = 0; i < random_count; ++i) {
    Case k{};
    k.format = kScaleFormats[i % 5];
    k.sw = size(), k.sh = size(), k.dw = size(), k.dh = size();
    k.algorithm = clvf_scale_algorithm(1 + i % 8);
    k.taps = std::uniform_int_distribution<int>(1, 8)(rng);
    k.b = std::uniform_real_distribution<double>(0, 1)(rng);
    k.c = std::uniform_real_distribution<double>(0, 1)(rng);
    k.chroma = clvf_chroma_location(1 + i % 3);
    if (i % 3 == 0) {  // and a conversion to any format
      static const clvf_matrix matrices[] = {CLVF_MATRIX_BT709, CLVF_MATRIX_SMPTE170M, CLVF_MATRIX_BT2020_NCL,
                                             CLVF_MATRIX_SMPTE240M};
      k.dst_format = clvf_pixel_format(1 + rng() % 7);
      k.src_matrix = matrices[rng() % 4], k.dst_matrix = matrices[rng() % 4];
      k.src_range = rng() % 2 ? CLVF_RANGE_PC : CLVF_RANGE_TV;
      k.dst_range = format_is_rgb(k.dst_format) || rng() % 2 ? CLVF_RANGE_PC : CLVF_RANGE_TV;
      k.dither = clvf_dither(rng() % 3);
    }
    cases.push_back(k);
  }
  // Widths in a ratio of small whole numbers (q source to p output pixels), where every output
  // repeats one pattern of taps: CPUs take the phase kernel there (up and down). The
  // small set (Oclgrind, the sanitizer stage) takes the first three: each case is a few programs
  // to build.
  const int ratios[][2] = {{2, 3}, {1, 2}, {3, 2}, {1, 3}, {3, 4}, {4, 3}, {1, 4}, {2, 1}, {1, 1}, {4, 1}};
  for (int i = 0; i < (small_only() ? 3 : 10); ++i) {
    const auto [p, q] = ratios[i % 10];
    const int n = std::uniform_int_distribution<int>(1, max / 4)(rng);
    Case k{kScaleFormats[i % 5], q * n, size(), p * n, size(), clvf_scale_algorithm(1 + i % 8), 0.3, 0.3,
           clvf_chroma_location(1 + i % 3), 1 + i % 6};
    cases.push_back(k);
  }
  if (!small_only()) {
    cases.push_back({CLVF_PIX_NV12, 1920, 1080, 1280, 720, CLVF_SCALE_BICUBIC, 0, 0.6, CLVF_CHROMA_LEFT});
    cases.push_back({CLVF_PIX_YUV420P, 640, 360, 1921, 1079, CLVF_SCALE_BILINEAR, 0, 0, CLVF_CHROMA_CENTER});
    cases.push_back({CLVF_PIX_NV12, 3840, 2160, 1280, 720, CLVF_SCALE_LANCZOS, 0, 0, CLVF_CHROMA_TOPLEFT, 4});
    cases.push_back({CLVF_PIX_YUV420P, 1920, 1080, 97, 61, CLVF_SCALE_AREA, 0, 0, CLVF_CHROMA_LEFT});
    // The common web step from a software decoder's frames (CPUs: U and V in one launch).
    cases.push_back({CLVF_PIX_YUV420P, 1920, 1080, 1280, 720, CLVF_SCALE_SPLINE36, 0, 0, CLVF_CHROMA_LEFT});
    // And the common upscales: 720p to 1080p (three phases to merge a block) and 540p to 1080p.
    cases.push_back({CLVF_PIX_YUV420P, 1280, 720, 1920, 1080, CLVF_SCALE_SPLINE36, 0, 0, CLVF_CHROMA_LEFT});
    cases.push_back({CLVF_PIX_NV12, 960, 540, 1920, 1080, CLVF_SCALE_BICUBIC, 0, 0.5, CLVF_CHROMA_TOPLEFT});
    // Ratios with no short pattern (CPUs: the taps form): windows of two and three vectors.
    cases.push_back({CLVF_PIX_YUV420P, 1920, 1080, 1366, 768, CLVF_SCALE_SPLINE36, 0, 0, CLVF_CHROMA_LEFT});
    cases.push_back({CLVF_PIX_NV12, 1920, 1080, 854, 480, CLVF_SCALE_SPLINE36, 0, 0, CLVF_CHROMA_LEFT});
    // Large upscales, where the table folds mirrored taps in so that an output's first tap may
    // come before its left neighbour's (web-720p of a 64x48 frame, as the package consumer plans).
    cases.push_back({CLVF_PIX_NV12, 64, 48, 960, 720, CLVF_SCALE_SPLINE36, 0, 0, CLVF_CHROMA_LEFT});
    cases.push_back({CLVF_PIX_YUV420P, 10, 6, 250, 90, CLVF_SCALE_LANCZOS, 0, 0, CLVF_CHROMA_CENTER, 4});
    // The widest frames there are (16K), down and up.
    cases.push_back({CLVF_PIX_NV12, 16384, 6, 8192, 4, CLVF_SCALE_BICUBIC, 0, 0.5, CLVF_CHROMA_LEFT});
    cases.push_back({CLVF_PIX_YUV420P, 4096, 2, 16384, 3, CLVF_SCALE_SPLINE36, 0, 0, CLVF_CHROMA_CENTER});
    // 4K P010 BT.2020 to 1080p NV12 BT.709, dithered: the HDR-decode-to-web-encode step.
    cases.push_back({CLVF_PIX_P010, 3840, 2160, 1920, 1080, CLVF_SCALE_SPLINE36, 0, 0, CLVF_CHROMA_LEFT, 3,
                     CLVF_PIX_NV12, CLVF_MATRIX_BT2020_NCL, CLVF_MATRIX_BT709, CLVF_RANGE_TV, CLVF_RANGE_TV,
                     CLVF_DITHER_ORDERED});
  }
  return cases;
}

// Each component of the source scaled on its own grid (4:2:0 chroma with its siting).
Components scale_reference(const Case& k, const Components& src) {
  Components out;
  for (int c = 0; c < 4; ++c) {
    if (!src.present[c]) continue;
    const bool sub = src.subsampled[c];
    RefScale rs;
    rs.algorithm = k.algorithm, rs.b = k.b, rs.c = k.c, rs.taps = k.taps;
    rs.luma_src_w = k.sw, rs.luma_src_h = k.sh, rs.luma_dst_w = k.dw, rs.luma_dst_h = k.dh;
    if (sub) {
      rs.subsampling = 2;
      rs.siting_x = k.chroma == CLVF_CHROMA_CENTER ? 0.5 : 0.0;
      rs.siting_y = k.chroma == CLVF_CHROMA_TOPLEFT ? 0.0 : 0.5;
    }
    out.present[c] = true, out.subsampled[c] = sub;
    out.w[c] = sub ? (k.dw + 1) / 2 : k.dw, out.h[c] = sub ? (k.dh + 1) / 2 : k.dh;
    out.value[c] = reference_scale(src.value[c], src.w[c], src.h[c], 1, out.w[c], out.h[c], rs);
  }
  return out;
}

class ScaleChecker : public StorageChecker {};

TEST_P(ScaleChecker, MatchesFloat64Reference) {
  const clvf_storage storage = GetParam();
  std::mt19937_64 rng(checker_seed());
  int checked = 0, skipped = 0;
  for (const Case& k : make_cases(storage)) {
    SCOPED_TRACE(describe(k));
    clvf_scale_params p;
    clvf_scale_params_default(&p);
    p.format = k.format;
    p.src_width = k.sw, p.src_height = k.sh, p.dst_width = k.dw, p.dst_height = k.dh;
    p.algorithm = k.algorithm, p.param_b = k.b, p.param_c = k.c, p.taps = k.taps, p.chroma_location = k.chroma;
    p.src_storage = p.dst_storage = storage;
    const clvf_pixel_format out_format = k.dst_format ? k.dst_format : k.format;
    if (k.dst_format) {
      p.dst_format = k.dst_format;
      p.src_matrix = k.src_matrix, p.dst_matrix = k.dst_matrix, p.src_range = k.src_range, p.dst_range = k.dst_range;
      p.dither = k.dither;
    }
    if (!images_fit(*device_, storage, k.format, k.sw, k.sh) || !images_fit(*device_, storage, out_format, k.dw, k.dh)) {
      ++skipped;
      continue;
    }
    clvf_scale* scale = nullptr;
    const clvf_status st = clvf_scale_create(handle_, &p, &scale);
    if (expect_unsupported_images(*device_, storage, k.format, out_format, st)) {
      clvf_scale_release(scale);
      ++skipped;
      continue;
    }
    ASSERT_EQ(st, CLVF_OK) << clvf_last_error();

    const Components src = random_components(k.format, k.sw, k.sh, rng);
    const auto src_planes = pack(k.format, src, k.sw, k.sh);
    Components ref = scale_reference(k, src);
    bool dithered = false;
    if (k.dst_format) {
      clvf_colorspace_params c;
      clvf_colorspace_params_default(&c);
      c.width = k.dw, c.height = k.dh, c.src_format = k.format, c.dst_format = k.dst_format;
      c.src_matrix = k.src_matrix, c.dst_matrix = k.dst_matrix, c.src_range = k.src_range, c.dst_range = k.dst_range;
      c.chroma_location = k.chroma, c.chroma_filter = k.algorithm, c.param_b = k.b, c.param_c = k.c, c.taps = k.taps;
      ref = reference_colour(c, ref);
      dithered = k.dither == CLVF_DITHER_ORDERED ||
                 (k.dither == CLVF_DITHER_AUTO && format_depth(k.dst_format) < format_depth(k.format));
    }

    TestFrame in(device_->context(), device_->queue(), storage, src_planes, colour_image_formats(k.format));
    TestFrame out(device_->context(), device_->queue(), storage, colour_plane_shapes(out_format, k.dw, k.dh),
                  colour_image_formats(out_format));
    in.fill(src_planes);
    out.fill(pack(out_format, poison_for(ref, out_format), k.dw, k.dh));
    ASSERT_EQ(clvf_scale_process(scale, &in.frame(), &out.frame()), CLVF_OK) << clvf_last_error();
    clvf_scale_release(scale);

    bool padding_intact = false;
    const Components got = unpack(out_format, out.read(&padding_intact), k.dw, k.dh);
    EXPECT_TRUE(padding_intact) << "bytes outside the destination planes were written";
    expect_components_match(got, ref, out_format, dithered);
    ++checked;
  }
  RecordProperty("cases_checked", checked);
  RecordProperty("cases_without_image_formats", skipped);
  EXPECT_GT(checked, 0);
}

CLVF_INSTANTIATE_STORAGES(ScaleChecker);

}  // namespace
}  // namespace clvf::detail::test
