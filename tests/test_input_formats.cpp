// Pixel formats users' files carry, into each clvf filter through build/bin/ffmpeg without a
// format= of the user's: either processed (FFmpeg converts to a format the filter takes without
// losing bit depth or chroma resolution, and the picture matches FFmpeg's CPU filter), or refused
// when the filter is configured, with a message naming the input's format, what the filter takes
// and the format= that accepts the loss.
#include <gtest/gtest.h>
#include <fmt/format.h>
#include <unistd.h>

#include <regex>

#include "media_files.hpp"

namespace clvf::detail::test {
namespace {

namespace fs = std::filesystem;

struct Filter {
  const char* name;
  const char* clvf;
  const char* cpu;
  std::vector<std::string> refused;  // input formats it refuses (the rest it processes)
};

const std::vector<std::string> kFormats = {"yuv422p", "yuv444p", "yuv420p10le", "gray", "yuvj420p", "rgb24"};

const Filter kFilters[] = {
    {"scale", "scale_clvf=w=160:h=-2", "scale=w=160:h=-2", {}},
    {"colorspace", "colorspace_clvf=matrix=bt709", "scale=out_color_matrix=bt709", {}},
    // NL-means runs on 8-bit 4:2:0 (nv12, yuv420p) only.
    {"denoise", "denoise_clvf", "nlmeans", {"yuv422p", "yuv444p", "yuv420p10le", "rgb24"}},
    {"chain_preset", "clvf=archive-denoise", "nlmeans=s=7.5:p=7:r=15", {"yuv422p", "yuv444p", "yuv420p10le", "rgb24"}},
};

struct Case {
  Filter filter;
  std::string format;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.format << " into " << c.filter.clvf; }

std::vector<Case> cases() {
  std::vector<Case> all;
  for (const Filter& f : kFilters)
    for (const std::string& format : kFormats) all.push_back({f, format});
  return all;
}

class InputFormats : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / fmt::format("clvf-formats-{}-{}-{}", ::getpid(), GetParam().filter.name,
                                                   GetParam().format);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

int depth(const std::string& pix_fmt) {
  return pix_fmt.find("10") != std::string::npos || pix_fmt.find("p016") != std::string::npos ? 10 : 8;
}
// Chroma samples per 2x2 luma block: 4:4:4 and RGB 4, 4:2:2 2, 4:2:0 and NV12 1; gray none.
int chroma_per_block(const std::string& pix_fmt) {
  if (pix_fmt.find("444") != std::string::npos || pix_fmt.find("rgb") != std::string::npos ||
      pix_fmt.find("bgr") != std::string::npos)
    return 4;
  if (pix_fmt.find("422") != std::string::npos) return 2;
  if (pix_fmt.rfind("gray", 0) == 0) return 0;
  return 1;
}

// What ffmpeg wrote to its rawvideo output: "Video: rawvideo ..., PIX_FMT(...), WxH" after "Output #0".
struct RawOutput {
  std::string pix_fmt;
  int w = 0, h = 0;
};
RawOutput raw_output(const std::string& log) {
  static const std::regex re(R"(Output #0[\s\S]*?Video: rawvideo[^\n]*?, ([0-9a-z_]+)(\([^)]*\))?, ([0-9]+)x([0-9]+))");
  std::smatch m;
  if (!std::regex_search(log, m, re)) return {};
  return {m[1], std::stoi(m[3]), std::stoi(m[4])};
}

TEST_P(InputFormats, ProcessedWithoutLossOrRefusedWithTheFormatToAdd) {
  const Case& c = GetParam();
  const std::string source = fmt::format(
      "-f lavfi -i testsrc2=s=320x240:r=25:d=0.2,noise=alls=8:allf=t,format={}", c.format);
  // Each filter's output as it left the filter (rawvideo takes every format), then in 8-bit 4:4:4.
  auto run = [&](const char* vf, const char* tag, RawOutput* got) {
    const fs::path raw = dir_ / fmt::format("{}.raw", tag), yuv = dir_ / fmt::format("{}.yuv", tag);
    const ProcessResult r = run_ffmpeg_bounded(
        "5.1", fmt::format("{} -vf '{}' -loglevel info -f rawvideo -y '{}'", source, vf, raw.string()));
    *got = raw_output(r.output);
    if (r.status == 0 && !got->pix_fmt.empty()) {
      EXPECT_EQ(run_ffmpeg_bounded("5.1", fmt::format("-f rawvideo -pix_fmt {} -s {}x{} -i '{}' -pix_fmt yuv444p "
                                                      "-f rawvideo -y '{}'",
                                                      got->pix_fmt, got->w, got->h, raw.string(), yuv.string()))
                    .status,
                0);
    }
    return std::make_pair(r, read_file(yuv));
  };
  RawOutput got, cpu_got;
  const auto [r, picture] = run(c.filter.clvf, "clvf", &got);
  const bool refused = std::find(c.filter.refused.begin(), c.filter.refused.end(), c.format) != c.filter.refused.end();
  if (refused) {
    EXPECT_NE(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("the input is " + c.format + ", which this filter does not take (it takes "),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("put format="), std::string::npos) << r.output;
    return;
  }
  ASSERT_EQ(r.status, 0) << r.output;
  ASSERT_NE(got.pix_fmt, "") << r.output;
  EXPECT_GE(depth(got.pix_fmt), depth(c.format)) << c.format << " became " << got.pix_fmt;
  EXPECT_GE(chroma_per_block(got.pix_fmt), chroma_per_block(c.format)) << c.format << " became " << got.pix_fmt;

  // The picture as FFmpeg's CPU filter gives it: luma close (a wrong range puts it near 27 dB;
  // swscale's own 8-bit matrix conversion is 37 dB from clvf's), chroma within what different
  // chroma resampling gives.
  const auto [cpu_r, cpu_picture] = run(c.filter.cpu, "cpu", &cpu_got);
  ASSERT_EQ(cpu_r.status, 0) << cpu_r.output;
  ASSERT_EQ(picture.size(), cpu_picture.size());
  ASSERT_EQ(picture.size(), size_t(got.w) * got.h * 3 * 5) << "5 frames of " << got.w << "x" << got.h;
  const size_t plane = size_t(got.w) * got.h;
  for (int p = 0; p < 3; ++p) {
    std::vector<uint8_t> a, b;
    for (size_t f = 0; f < 5; ++f) {
      const size_t at = (f * 3 + p) * plane;
      a.insert(a.end(), picture.begin() + at, picture.begin() + at + plane);
      b.insert(b.end(), cpu_picture.begin() + at, cpu_picture.begin() + at + plane);
    }
    EXPECT_GT(psnr(a, b), p == 0 ? 34.0 : 30.0)
        << "plane " << p << ": " << c.format << " through " << c.filter.clvf << " (as " << got.pix_fmt << ")";
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, InputFormats, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& i) {
                           return std::string(i.param.filter.name) + "_" + i.param.format;
                         });

}  // namespace
}  // namespace clvf::detail::test
