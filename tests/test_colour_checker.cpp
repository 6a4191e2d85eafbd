// The kernel checker for colorspace: every pair of formats, matrices, ranges, chroma filters,
// sitings and dither modes on random inputs and sizes (1x1, odd, large), against the float64
// reference, on every storage kind. Rounded outputs must be within rounding of the exact value;
// dithered ones must equal floor(exact + Bayer threshold). Outputs are poisoned with the value
// farthest from the reference, and bytes around the planes must stay untouched.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <tuple>

#include "checker_support.hpp"
#include "component_check.hpp"
#include "clvf/clvf.h"
#include "reference_colour.hpp"
#include "runtime/device.hpp"
#include "test_frames.hpp"

namespace clvf::detail::test {
namespace {

constexpr clvf_pixel_format kFormats[] = {CLVF_PIX_NV12,    CLVF_PIX_YUV420P, CLVF_PIX_YV12, CLVF_PIX_P010,
                                          CLVF_PIX_YUV444P, CLVF_PIX_RGBA,    CLVF_PIX_BGRA};
constexpr clvf_matrix kMatrices[] = {CLVF_MATRIX_BT709, CLVF_MATRIX_BT470BG, CLVF_MATRIX_SMPTE170M,
                                     CLVF_MATRIX_SMPTE240M, CLVF_MATRIX_BT2020_NCL};
constexpr clvf_scale_algorithm kFilters[] = {CLVF_SCALE_BILINEAR, CLVF_SCALE_POINT, CLVF_SCALE_BICUBIC,
                                             CLVF_SCALE_LANCZOS, CLVF_SCALE_SPLINE36, CLVF_SCALE_AREA};

std::string describe(const clvf_colorspace_params& p) {
  return fmt::format("{} {} {} -> {} {} {}, {}x{}, chroma filter {} loc {}, dither {}", format_name(p.src_format),
                     int(p.src_matrix), p.src_range == CLVF_RANGE_TV ? "tv" : "pc", format_name(p.dst_format),
                     int(p.dst_matrix), p.dst_range == CLVF_RANGE_TV ? "tv" : "pc", p.width, p.height,
                     int(p.chroma_filter), int(p.chroma_location), int(p.dither));
}

clvf_colorspace_params random_params(std::mt19937_64& rng, clvf_pixel_format src, clvf_pixel_format dst, int w, int h) {
  const auto pick = [&](const auto& options) {
    return options[std::uniform_int_distribution<size_t>(0, std::size(options) - 1)(rng)];
  };
  clvf_colorspace_params p;
  clvf_colorspace_params_default(&p);
  p.width = w, p.height = h;
  p.src_format = src, p.dst_format = dst;
  p.src_matrix = pick(kMatrices), p.dst_matrix = pick(kMatrices);
  p.src_range = format_is_rgb(src) || rng() % 2 ? CLVF_RANGE_PC : CLVF_RANGE_TV;
  p.dst_range = format_is_rgb(dst) || rng() % 2 ? CLVF_RANGE_PC : CLVF_RANGE_TV;
  p.chroma_location = clvf_chroma_location(1 + rng() % 3);
  p.chroma_filter = pick(kFilters);
  p.param_b = std::uniform_real_distribution<double>(0, 1)(rng);
  p.param_c = std::uniform_real_distribution<double>(0, 1)(rng);
  p.taps = 1 + rng() % 5;
  p.dither = clvf_dither(rng() % 3);
  return p;
}

std::vector<clvf_colorspace_params> make_cases(clvf_storage storage) {
  std::mt19937_64 rng(checker_seed() + 7 * storage);
  std::vector<clvf_colorspace_params> cases;
  // Every pair of formats, on small sizes that cycle through the awkward ones.
  const int sizes[][2] = {{1, 1}, {2, 1}, {1, 3}, {3, 3}, {17, 9}, {8, 2}, {5, 12}};
  int n = 0;
  for (auto src : kFormats)
    for (auto dst : kFormats) {
      const auto& s = sizes[n++ % std::size(sizes)];
      cases.push_back(random_params(rng, src, dst, s[0], s[1]));
    }
  const int max = small_only() ? 40 : 300, random_count = small_only() ? 8 : 30;
  for (int i = 0; i < random_count; ++i) {
    const int w = std::uniform_int_distribution<int>(1, max)(rng), h = std::uniform_int_distribution<int>(1, max)(rng);
    cases.push_back(random_params(rng, kFormats[rng() % 7], kFormats[rng() % 7], w, h));
  }
  // Wide enough for CPU devices' 16-pixel vector blocks (48 and more), heights that end in a
  // partial group of rows: these run on Oclgrind too, which checks every access. Edge blocks take
  // vector code from 32 chroma columns (64 and 67 wide), scalar code below (57).
  for (const auto& [filter, w, h] :
       {std::tuple{CLVF_SCALE_BILINEAR, 67, 35}, {CLVF_SCALE_SPLINE36, 64, 13}, {CLVF_SCALE_SPLINE36, 57, 11}}) {
    auto p = random_params(rng, CLVF_PIX_P010, CLVF_PIX_NV12, w, h);
    p.chroma_filter = filter, p.src_matrix = CLVF_MATRIX_BT2020_NCL, p.dst_matrix = CLVF_MATRIX_BT709;
    cases.push_back(p);
    p.src_format = CLVF_PIX_NV12;
    cases.push_back(p);
    p.src_format = CLVF_PIX_YUV420P, p.dst_format = CLVF_PIX_YUV444P;
    cases.push_back(p);
    p.src_format = CLVF_PIX_NV12, p.dst_format = CLVF_PIX_RGBA, p.dst_range = CLVF_RANGE_PC;
    cases.push_back(p);
  }
  if (!small_only()) {
    auto p = random_params(rng, CLVF_PIX_NV12, CLVF_PIX_NV12, 1920, 1080);
    p.src_matrix = CLVF_MATRIX_SMPTE170M, p.dst_matrix = CLVF_MATRIX_BT709, p.src_range = p.dst_range = CLVF_RANGE_TV;
    p.chroma_filter = CLVF_SCALE_BILINEAR, p.chroma_location = CLVF_CHROMA_LEFT;
    cases.push_back(p);
    p = random_params(rng, CLVF_PIX_P010, CLVF_PIX_NV12, 1921, 1081);
    p.src_matrix = CLVF_MATRIX_BT2020_NCL, p.dst_matrix = CLVF_MATRIX_BT709, p.dither = CLVF_DITHER_AUTO;
    cases.push_back(p);
    cases.push_back(random_params(rng, CLVF_PIX_RGBA, CLVF_PIX_YUV420P, 1280, 720));
    cases.push_back(random_params(rng, CLVF_PIX_YUV420P, CLVF_PIX_BGRA, 1279, 719));
    cases.push_back(random_params(rng, CLVF_PIX_NV12, CLVF_PIX_P010, 16384, 4));  // the widest frames (16K)
  }
  return cases;
}

class ColourChecker : public StorageChecker {};
class ColourOddPitch : public StorageChecker {};

TEST_P(ColourChecker, MatchesFloat64Reference) {
  const clvf_storage storage = GetParam();
  std::mt19937_64 rng(checker_seed());
  int checked = 0, skipped = 0;
  for (clvf_colorspace_params p : make_cases(storage)) {
    SCOPED_TRACE(describe(p));
    p.src_storage = p.dst_storage = storage;
    if (!images_fit(*device_, storage, p.src_format, p.width, p.height) ||
        !images_fit(*device_, storage, p.dst_format, p.width, p.height)) {
      ++skipped;
      continue;
    }
    clvf_colorspace* op = nullptr;
    const clvf_status st = clvf_colorspace_create(handle_, &p, &op);
    if (expect_unsupported_images(*device_, storage, p.src_format, p.dst_format, st)) {
      clvf_colorspace_release(op);
      ++skipped;
      continue;
    }
    ASSERT_EQ(st, CLVF_OK) << clvf_last_error();

    const int w = p.width, h = p.height;
    const Components src = random_components(p.src_format, w, h, rng);
    const auto src_planes = pack(p.src_format, src, w, h);
    const Components ref = reference_colour(p, src);

    TestFrame in(device_->context(), device_->queue(), storage, src_planes, colour_image_formats(p.src_format));
    TestFrame out(device_->context(), device_->queue(), storage, colour_plane_shapes(p.dst_format, w, h),
                  colour_image_formats(p.dst_format));
    in.fill(src_planes);
    out.fill(pack(p.dst_format, poison_for(ref, p.dst_format), w, h));
    ASSERT_EQ(clvf_colorspace_process(op, &in.frame(), &out.frame()), CLVF_OK) << clvf_last_error();
    clvf_colorspace_release(op);

    bool padding_intact = false;
    const Components got = unpack(p.dst_format, out.read(&padding_intact), w, h);
    EXPECT_TRUE(padding_intact) << "bytes outside the destination planes were written";
    const bool dithered = p.dither == CLVF_DITHER_ORDERED ||
                          (p.dither == CLVF_DITHER_AUTO && format_depth(p.dst_format) < format_depth(p.src_format));
    expect_components_match(got, ref, p.dst_format, dithered);
    ++checked;
  }
  RecordProperty("cases_checked", checked);
  RecordProperty("cases_without_image_formats", skipped);
  EXPECT_GT(checked, 0);
}

CLVF_INSTANTIATE_STORAGES(ColourChecker);

TEST_F(ColourOddPitch, SixteenBitPlanesWithAnOddPitchAreRefused) {
  clvf_colorspace_params p;
  clvf_colorspace_params_default(&p);
  p.width = 64, p.height = 16;
  p.src_format = CLVF_PIX_P010;
  clvf_colorspace* op = nullptr;
  ASSERT_EQ(clvf_colorspace_create(handle_, &p, &op), CLVF_OK) << clvf_last_error();
  std::vector<uint8_t> in(64 * 2 * 16 * 2 + 64), out(64 * 16 * 2);
  clvf_frame src{}, dst{};
  src.storage = dst.storage = CLVF_STORAGE_HOST;
  src.planes[0] = {in.data(), nullptr, 0, 129};
  src.planes[1] = {in.data() + 129 * 16, nullptr, 0, 130};
  dst.planes[0] = {out.data(), nullptr, 0, 64};
  dst.planes[1] = {out.data() + 64 * 16, nullptr, 0, 64};
  EXPECT_EQ(clvf_colorspace_process(op, &src, &dst), CLVF_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(clvf_last_error()).find("source plane 0 holds 2-byte samples: its address and pitch must be "
                                                "multiples of 2"),
            std::string::npos)
      << clvf_last_error();
  clvf_colorspace_release(op);
}

TEST(ColourParams, BadValuesNameTheFieldAndWhatIsAllowed) {
  const auto expect = [](auto edit, const std::string& needle) {
    clvf_colorspace_params p;
    clvf_colorspace_params_default(&p);
    p.width = 64, p.height = 48;
    edit(p);
    EXPECT_EQ(clvf_colorspace_validate(&p), CLVF_ERROR_INVALID_ARGUMENT) << needle;
    EXPECT_NE(std::string(clvf_last_error()).find(needle), std::string::npos) << clvf_last_error();
  };
  expect([](auto& p) { p.src_format = clvf_pixel_format(42); }, "source format 42 is not known; allowed: nv12");
  expect([](auto& p) { p.dst_matrix = clvf_matrix(3); }, "destination matrix 3 is not known; allowed: bt709");
  expect([](auto& p) { p.src_range = clvf_range(0); }, "source range 0 is not known");
  expect([](auto& p) { p.dst_format = CLVF_PIX_RGBA, p.dst_range = CLVF_RANGE_TV; }, "rgba is full range");
  expect([](auto& p) { p.dither = clvf_dither(7); }, "dither 7 is not known; allowed: auto, none, ordered");
  expect([](auto& p) { p.chroma_filter = CLVF_SCALE_LANCZOS, p.taps = 0; }, "lanczos taps is 0");
  expect([](auto& p) { p.width = 0; }, "width is 0; allowed: 1 to 16384");
  expect([](auto& p) { p.chroma_location = clvf_chroma_location(9); }, "chroma location 9");

  clvf_matrix m;
  EXPECT_EQ(clvf_matrix_from_name("bt601", &m), CLVF_OK);
  EXPECT_EQ(m, CLVF_MATRIX_SMPTE170M);
  EXPECT_EQ(clvf_matrix_from_name("bt2021", &m), CLVF_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(clvf_last_error()).find("allowed: bt709, bt601"), std::string::npos);
  clvf_pixel_format f;
  EXPECT_EQ(clvf_pixel_format_from_name("p010le", &f), CLVF_OK);
  EXPECT_EQ(f, CLVF_PIX_P010);
  EXPECT_EQ(clvf_pixel_format_from_name("nv21", &f), CLVF_ERROR_INVALID_ARGUMENT);
  clvf_range r;
  EXPECT_EQ(clvf_range_from_name("limited", &r), CLVF_OK);
  EXPECT_EQ(r, CLVF_RANGE_TV);
}

}  // namespace
}  // namespace clvf::detail::test
