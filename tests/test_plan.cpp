// clvf_scale_plan and clvf_colorspace_plan: the filters' rules, written once in the library, read
// here against values worked out by hand (FFmpeg's scale_eval.c for sizes, the filter pages for
// tags). The chain plans through them too: ChainUsesThePlanner shows it. The FFmpeg filters'
// agreement is checked by the ffmpeg tests (Chains.*, FfmpegScale.*, FfmpegColour.*).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "clvf/clvf.h"

namespace {

clvf_stream stream(int w, int h, clvf_pixel_format f) {
  clvf_stream s{};
  s.version = CLVF_API_VERSION;
  s.width = w;
  s.height = h;
  s.format = f;
  return s;
}

struct ScaleCase {
  clvf_scale_params params{};
  clvf_stream out{};
  clvf_status status = CLVF_OK;
  std::string error;
};

ScaleCase scale(const clvf_scale_request& r, const clvf_stream& in) {
  ScaleCase c;
  c.status = clvf_scale_plan(&r, &in, &c.params, &c.out);
  c.error = clvf_last_error();
  return c;
}

clvf_scale_request size_request(int w, int h, int oar = CLVF_UNSET, int divisible = CLVF_UNSET) {
  clvf_scale_request r;
  clvf_scale_request_default(&r);
  r.width = w;
  r.height = h;
  r.force_original_aspect_ratio = oar;
  r.force_divisible_by = divisible;
  return r;
}

TEST(PlanScale, SizesAsFfmpegAdjustsThem) {
  const clvf_stream in = stream(1920, 1080, CLVF_PIX_YUV444P);  // odd sizes allowed
  struct {
    int w, h, oar, divisible, out_w, out_h;
  } cases[] = {
      {1280, -2, CLVF_UNSET, CLVF_UNSET, 1280, 720},  // -2: from the aspect, even
      {-1, 480, CLVF_UNSET, CLVF_UNSET, 853, 480},    // 853.33 rounds to nearest
      {-4, 482, CLVF_UNSET, CLVF_UNSET, 856, 482},    // 856.9 / 4 = 214.2 -> 214 x 4
      {0, 0, CLVF_UNSET, CLVF_UNSET, 1920, 1080},     // 0: the input's
      {-1, -1, CLVF_UNSET, CLVF_UNSET, 1920, 1080},
      {1000, 1000, 1, CLVF_UNSET, 1000, 563},         // decrease: 562.5 rounds up
      {1000, 1000, 1, 16, 992, 560},                  // then down to multiples of 16
      {1000, 1000, 2, 16, 1792, 1008},                // increase: 1777.8 -> 1778 -> up to 1792 (FFmpeg 5.1)
      {640, 640, 2, 2, 1138, 640},
  };
  int checked = 0;
  for (const auto& t : cases) {
    const ScaleCase c = scale(size_request(t.w, t.h, t.oar, t.divisible), in);
    ASSERT_EQ(c.status, CLVF_OK) << c.error;
    EXPECT_EQ(c.out.width, t.out_w) << t.w << "x" << t.h << " oar " << t.oar << " by " << t.divisible;
    EXPECT_EQ(c.out.height, t.out_h) << t.w << "x" << t.h << " oar " << t.oar << " by " << t.divisible;
    EXPECT_EQ(c.params.dst_width, c.out.width);
    EXPECT_EQ(c.params.dst_height, c.out.height);
    ++checked;
  }
  EXPECT_EQ(checked, 9);
}

TEST(PlanScale, AspectRatioFollowsTheSize) {
  clvf_stream in = stream(720, 576, CLVF_PIX_YUV420P);
  in.sar_num = 16;
  in.sar_den = 15;
  const ScaleCase c = scale(size_request(640, 360), in);
  ASSERT_EQ(c.status, CLVF_OK) << c.error;
  // 16/15 x (360 x 720) / (640 x 576) = 3/4
  EXPECT_EQ(c.out.sar_num, 3);
  EXPECT_EQ(c.out.sar_den, 4);
  const ScaleCase unknown = scale(size_request(640, 360), stream(720, 576, CLVF_PIX_YUV420P));
  EXPECT_EQ(unknown.out.sar_num, 0);
}

TEST(PlanScale, WithoutConversionTagsOnlyTheRangeOfAnUntaggedStream) {
  const ScaleCase c = scale(size_request(1280, 720), stream(1920, 1080, CLVF_PIX_NV12));
  ASSERT_EQ(c.status, CLVF_OK) << c.error;
  EXPECT_EQ(c.params.dst_format, 0);
  EXPECT_EQ(c.out.format, CLVF_PIX_NV12);
  EXPECT_EQ(c.out.matrix, 0);
  EXPECT_EQ(c.out.range, CLVF_RANGE_TV);  // as FFmpeg's scale tags it
  EXPECT_EQ(c.out.chroma_location, 0);
  EXPECT_EQ(c.params.chroma_location, CLVF_CHROMA_LEFT);

  clvf_stream tagged = stream(1920, 1080, CLVF_PIX_NV12);
  tagged.range = CLVF_RANGE_PC;
  tagged.chroma_location = CLVF_CHROMA_TOPLEFT;
  const ScaleCase t = scale(size_request(1280, 720), tagged);
  EXPECT_EQ(t.out.range, CLVF_RANGE_PC);
  EXPECT_EQ(t.params.chroma_location, CLVF_CHROMA_TOPLEFT);
}

TEST(PlanScale, AConversionReadsAnUntaggedSourceByItsHeight) {
  clvf_scale_request r = size_request(0, 0);
  r.format = CLVF_PIX_RGBA;
  const ScaleCase hd = scale(r, stream(1280, 720, CLVF_PIX_NV12));
  ASSERT_EQ(hd.status, CLVF_OK) << hd.error;
  EXPECT_EQ(hd.params.dst_format, CLVF_PIX_RGBA);
  EXPECT_EQ(hd.params.src_matrix, CLVF_MATRIX_BT709);
  EXPECT_EQ(hd.params.src_range, CLVF_RANGE_TV);
  EXPECT_EQ(hd.params.dst_range, CLVF_RANGE_PC);
  EXPECT_EQ(hd.out.matrix, 0);  // RGB has none
  EXPECT_EQ(hd.out.chroma_location, 0);
  EXPECT_EQ(hd.out.range, CLVF_RANGE_PC);

  r = size_request(0, 0);
  r.matrix = CLVF_MATRIX_BT709;  // any coding option converts, the format staying
  const ScaleCase sd = scale(r, stream(720, 576, CLVF_PIX_NV12));
  ASSERT_EQ(sd.status, CLVF_OK) << sd.error;
  EXPECT_EQ(sd.params.dst_format, CLVF_PIX_NV12);
  EXPECT_EQ(sd.params.src_matrix, CLVF_MATRIX_SMPTE170M);
  EXPECT_EQ(sd.params.dst_matrix, CLVF_MATRIX_BT709);
  EXPECT_EQ(sd.out.matrix, CLVF_MATRIX_BT709);
  EXPECT_EQ(sd.out.range, CLVF_RANGE_TV);
  EXPECT_EQ(sd.out.chroma_location, CLVF_CHROMA_LEFT);
}

TEST(PlanScale, ParamsByAlgorithm) {
  clvf_scale_request r = size_request(640, 360);
  r.algorithm = CLVF_SCALE_LANCZOS;
  r.param0 = 5;
  ScaleCase c = scale(r, stream(1920, 1080, CLVF_PIX_NV12));
  ASSERT_EQ(c.status, CLVF_OK) << c.error;
  EXPECT_EQ(c.params.taps, 5);
  r.algorithm = CLVF_SCALE_BICUBIC;
  r.param0 = 0;
  r.param1 = 0.5;
  c = scale(r, stream(1920, 1080, CLVF_PIX_NV12));
  ASSERT_EQ(c.status, CLVF_OK) << c.error;
  EXPECT_EQ(c.params.param_b, 0);
  EXPECT_EQ(c.params.param_c, 0.5);
}

TEST(PlanScale, ErrorsNameTheOption) {
  const clvf_stream in = stream(64, 48, CLVF_PIX_NV12);
  struct {
    clvf_scale_request r;
    clvf_stream in;
    const char* message;
  } cases[] = {
      {size_request(63, 48), in, "is odd: 4:2:0 output needs an even width and height"},
      {size_request(20000, 10), in, "each side must be 1 to 16384"},
      {size_request(64, 48, 3), in, "option 'force_original_aspect_ratio' is 3"},
      {size_request(64, 48, 1, 300), in, "option 'force_divisible_by' is 300"},
      {size_request(64, 48), stream(64, 48, CLVF_PIX_RGBA), "input format rgba is not taken"},
      {size_request(64, 48), stream(0, 48, CLVF_PIX_NV12), "input size 0x48"},
  };
  cases[0].r.width_text = "63";
  clvf_scale_request p0 = size_request(64, 48);
  p0.param0 = 2;
  clvf_scale_request taps = size_request(64, 48);
  taps.algorithm = CLVF_SCALE_LANCZOS;
  taps.param0 = 2.5;
  clvf_scale_request yv12 = size_request(64, 48);
  yv12.format = CLVF_PIX_YV12;
  int checked = 0;
  for (const auto& t : cases) {
    const ScaleCase c = scale(t.r, t.in);
    EXPECT_EQ(c.status, CLVF_ERROR_INVALID_ARGUMENT) << t.message;
    EXPECT_NE(c.error.find(t.message), std::string::npos) << c.error;
    EXPECT_EQ(c.error.rfind("scale_clvf: ", 0), 0u) << c.error;
    ++checked;
  }
  EXPECT_NE(scale(cases[0].r, in).error.find("from w='63' h='48'"), std::string::npos);
  EXPECT_NE(scale(p0, in).error.find("for bicubic each is allowed from 0 to 1"), std::string::npos);
  EXPECT_NE(scale(taps, in).error.find("for lanczos it is the number of taps, an integer from 1 to 16"),
            std::string::npos);
  EXPECT_NE(scale(yv12, in).error.find("option 'format': yv12 is not an output format"), std::string::npos);
  EXPECT_EQ(checked, 6);
}

TEST(PlanScale, PlansCompareWithMemcmp) {
  clvf_scale_params a, b;
  std::memset(&a, 0x55, sizeof a);
  std::memset(&b, 0xaa, sizeof b);
  clvf_stream out;
  const clvf_scale_request r = size_request(1280, 720);
  const clvf_stream in = stream(1920, 1080, CLVF_PIX_NV12);
  ASSERT_EQ(clvf_scale_plan(&r, &in, &a, &out), CLVF_OK);
  ASSERT_EQ(clvf_scale_plan(&r, &in, &b, &out), CLVF_OK);
  EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0);
  EXPECT_EQ(clvf_scale_plan(nullptr, &in, &a, &out), CLVF_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(clvf_last_error()).find("clvf_scale_plan: request must not be NULL"), std::string::npos);
}

struct ColourCase {
  clvf_colorspace_params params{};
  clvf_stream out{};
  clvf_status status = CLVF_OK;
  std::string error;
};
ColourCase colour(const clvf_colorspace_request& r, const clvf_stream& in) {
  ColourCase c;
  c.status = clvf_colorspace_plan(&r, &in, &c.params, &c.out);
  c.error = clvf_last_error();
  return c;
}

TEST(PlanColorspace, RangesAndTags) {
  clvf_colorspace_request r;
  clvf_colorspace_request_default(&r);
  r.format = CLVF_PIX_NV12;
  const ColourCase from_rgb = colour(r, stream(640, 480, CLVF_PIX_BGRA));
  ASSERT_EQ(from_rgb.status, CLVF_OK) << from_rgb.error;
  EXPECT_EQ(from_rgb.params.src_range, CLVF_RANGE_PC);
  EXPECT_EQ(from_rgb.params.dst_range, CLVF_RANGE_TV);  // tv from RGB unless asked
  EXPECT_EQ(from_rgb.params.src_matrix, CLVF_MATRIX_SMPTE170M);
  EXPECT_EQ(from_rgb.out.matrix, CLVF_MATRIX_SMPTE170M);
  EXPECT_EQ(from_rgb.out.chroma_location, CLVF_CHROMA_LEFT);

  clvf_colorspace_request_default(&r);
  r.matrix = CLVF_MATRIX_BT2020_NCL;
  r.chroma_location = CLVF_CHROMA_CENTER;
  r.chroma_filter = CLVF_SCALE_SPLINE36;
  clvf_stream in = stream(1920, 1080, CLVF_PIX_P010);
  in.range = CLVF_RANGE_PC;
  in.matrix = CLVF_MATRIX_BT709;
  const ColourCase c = colour(r, in);
  ASSERT_EQ(c.status, CLVF_OK) << c.error;
  EXPECT_EQ(c.params.src_range, CLVF_RANGE_PC);
  EXPECT_EQ(c.params.dst_range, CLVF_RANGE_PC);  // the source's
  EXPECT_EQ(c.params.dst_matrix, CLVF_MATRIX_BT2020_NCL);
  EXPECT_EQ(c.params.chroma_filter, CLVF_SCALE_SPLINE36);
  EXPECT_EQ(c.out.format, CLVF_PIX_P010);
  EXPECT_EQ(c.out.chroma_location, CLVF_CHROMA_CENTER);

  clvf_colorspace_request_default(&r);
  r.matrix = 3;
  const ColourCase bad = colour(r, in);
  EXPECT_EQ(bad.status, CLVF_ERROR_INVALID_ARGUMENT);
  EXPECT_FALSE(bad.error.empty());
}

// The chain plans its stages through the same planner: the same request gives the same output.
TEST(PlanScale, ChainUsesThePlanner) {
  clvf_stream in = stream(1920, 1080, CLVF_PIX_NV12);
  in.sar_num = 4;
  in.sar_den = 3;
  clvf_scale_request r = size_request(1000, 1000, 2, 16);
  r.format = CLVF_PIX_YUV444P;
  clvf_scale_params params;
  clvf_stream planned, chained;
  ASSERT_EQ(clvf_scale_plan(&r, &in, &params, &planned), CLVF_OK) << clvf_last_error();
  ASSERT_EQ(clvf_chain_plan("scale_clvf=w=1000:h=1000:force_original_aspect_ratio=increase:force_divisible_by=16:"
                            "format=yuv444p",
                            &in, &chained),
            CLVF_OK)
      << clvf_last_error();
  EXPECT_EQ(std::memcmp(&planned, &chained, sizeof planned), 0);
  EXPECT_EQ(chained.width, 1792);
}

// An option given as "unset" is as not given: the preset's value, else the default (as the
// filters' "unset" constant in ffmpeg).
TEST(PlanScale, ChainTakesUnsetAsNotGiven) {
  const clvf_stream in = stream(96, 64, CLVF_PIX_NV12);
  clvf_stream preset, unset, disabled;
  ASSERT_EQ(clvf_chain_plan("scale_clvf=preset=web-720p", &in, &preset), CLVF_OK) << clvf_last_error();
  ASSERT_EQ(clvf_chain_plan("scale_clvf=preset=web-720p:force_original_aspect_ratio=unset", &in, &unset), CLVF_OK)
      << clvf_last_error();
  ASSERT_EQ(clvf_chain_plan("scale_clvf=preset=web-720p:force_original_aspect_ratio=disable", &in, &disabled),
            CLVF_OK)
      << clvf_last_error();
  EXPECT_EQ(std::memcmp(&preset, &unset, sizeof preset), 0);
  EXPECT_EQ(unset.width, 1080);
  EXPECT_EQ(disabled.width, 1280);
}

}  // namespace
