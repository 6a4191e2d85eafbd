// The filters' options: what `ffmpeg -h filter=NAME` shows, presets that tell the options a user
// gave (at their default value too) from the rest, and the library's messages logged as the
// filter instance's.
#include <fmt/format.h>

#include <map>
#include <random>
#include <regex>
#include <sstream>

#include "clvf/clvf.h"
#include "ffmpeg_support.hpp"

namespace clvf::detail::test {
namespace {

// Option name -> the text of its "(default ...)", from the help of one filter.
std::map<std::string, std::string> help_defaults(const std::string& filter) {
  const std::string out = run_command(std::string(CLVF_FFMPEG) + " -hide_banner -h filter=" + filter).output;
  std::map<std::string, std::string> defaults;
  std::istringstream lines(out);
  // "   name    <type>   ..FV....... help (from A to B) (default X)"
  const std::regex option(R"(^  +([a-z_0-9]+) +<[a-z_]+> +[.A-Za-z]+ .*\(default ([^()]*)\)$)");
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_match(line, m, option)) defaults[m[1]] = m[2];
  }
  return defaults;
}

// Options whose default is what the input's frames say show it by name ("input"); the others a
// preset may set have sentinel defaults (FFmpeg 5.1 and 7.1 give a filter no hook between setting
// the defaults and the user's options, and presets must tell an option given at its default value
// from one not given): the int ones show "unset", and every help text says the real default. The
// double ones (s, sc, param0, param1) show FFmpeg's "nan": it prints no names for doubles.
TEST(FfmpegOptions, HelpNamesTheDefaultsTakenFromTheInputOrThePreset) {
  const auto scale = help_defaults("scale_clvf");
  ASSERT_FALSE(scale.empty()) << "no options read from ffmpeg -h filter=scale_clvf";
  for (const char* option : {"matrix", "in_matrix", "range", "in_range"})
    EXPECT_EQ(scale.at(option), "input") << "scale_clvf " << option;
  for (const char* option : {"force_original_aspect_ratio", "force_divisible_by", "dither"})
    EXPECT_EQ(scale.at(option), "unset") << "scale_clvf " << option;
  const auto colour = help_defaults("colorspace_clvf");
  for (const char* option : {"matrix", "in_matrix", "range", "in_range", "chroma_location"})
    EXPECT_EQ(colour.at(option), "input") << "colorspace_clvf " << option;
  EXPECT_EQ(colour.at("dither"), "unset");
  const auto denoise = help_defaults("denoise_clvf");
  for (const char* option : {"p", "pc", "r", "rc", "planes", "t", "wmode"})
    EXPECT_EQ(denoise.at(option), "unset") << "denoise_clvf " << option;
}

// A chain reads 'unset' where ffmpeg's filter has the constant, and nowhere else: every option
// -h lists for the three filters, given 'unset', plans in a chain exactly when its default is shown
// as "unset" (the string options -h lists without a default are refused too).
TEST(FfmpegOptions, ChainsTakeUnsetWhereTheFiltersHaveIt) {
  clvf_stream in{}, out{};
  in.version = CLVF_API_VERSION;
  in.width = 96;
  in.height = 64;
  in.format = CLVF_PIX_NV12;
  for (const char* filter : {"scale_clvf", "denoise_clvf", "colorspace_clvf"}) {
    const auto defaults = help_defaults(filter);
    ASSERT_FALSE(defaults.empty()) << filter;
    for (const auto& [option, value] : defaults) {
      if (option == "device") continue;  // ffmpeg's alone: a chain refuses it whatever its value
      const std::string chain = fmt::format("{}={}=unset", filter, option);
      EXPECT_EQ(clvf_chain_plan(chain.c_str(), &in, &out) == CLVF_OK, value == "unset")
          << chain << " (ffmpeg's default: " << value << "): " << clvf_last_error();
    }
  }
  for (const char* chain : {"scale_clvf=algorithm=unset", "scale_clvf=format=unset", "colorspace_clvf=chroma_filter=unset"})
    EXPECT_NE(clvf_chain_plan(chain, &in, &out), CLVF_OK) << chain;
}

class FfmpegFilterOptions : public FfmpegTest {};

TEST_F(FfmpegFilterOptions, AnOptionGivenAtItsDefaultStillBeatsThePreset) {
  std::mt19937 rng(17);
  const int w = 96, h = 64;
  std::vector<uint8_t> raw(w * h * 3 / 2);
  // Mild noise on mid grey: s=14 smooths it away, s=1 (weights below 1/255 dropped) leaves it.
  for (auto& b : raw) b = static_cast<uint8_t>(120 + rng() % 17);
  const auto in = dir_ / "in.yuv";
  write_file(in, raw);
  const auto read = [&](const std::string& chain) { return read_file(filter(in, "yuv420p", w, h, chain)); };
  // strong is s=14; s=1 is the default: given, it wins.
  EXPECT_TRUE(read("denoise_clvf=preset=strong:s=1") == read("denoise_clvf"));
  EXPECT_FALSE(read("denoise_clvf=preset=strong") == read("denoise_clvf"));
  // web-720p's spline36 against bicubic, the default, given.
  EXPECT_TRUE(read("scale_clvf=preset=web-720p:algorithm=bicubic") ==
              read("scale_clvf=w=1280:h=720:force_original_aspect_ratio=decrease:force_divisible_by=2"));
  EXPECT_FALSE(read("scale_clvf=preset=web-720p") ==
               read("scale_clvf=w=1280:h=720:force_original_aspect_ratio=decrease:force_divisible_by=2"));
  // "unset" given is not given: web-720p's decrease (1080x720 from 96x64), not the default disable.
  EXPECT_TRUE(read("scale_clvf=preset=web-720p:force_original_aspect_ratio=unset") == read("scale_clvf=preset=web-720p"));
  EXPECT_FALSE(read("scale_clvf=preset=web-720p:force_original_aspect_ratio=disable") ==
               read("scale_clvf=preset=web-720p"));
}

TEST_F(FfmpegFilterOptions, LibraryMessagesNameTheFilterInstance) {
  // A program cache that cannot be written: the library warns, through the filter's av_log.
  const auto blocker = dir_ / "not-a-folder";
  write_file(blocker, {1});
  const std::string cmd = fmt::format(
      "CLVF_CACHE_DIR={}/sub {} -hide_banner -nostdin -loglevel warning -f lavfi -i testsrc2=size=64x48 -frames:v 1 "
      "-vf format=yuv420p,denoise_clvf=p=3:r=5 -f null -",
      blocker.string(), CLVF_FFMPEG);
  const auto [status, out] = run_command(cmd);
  ASSERT_EQ(status, 0) << out;
  // The instance's name, as FFmpeg's own messages for it show it ("Parsed_denoise_clvf_1").
  const std::regex warned(R"(\[Parsed_denoise_clvf_[0-9]+ @ 0x[0-9a-f]+\] program cache: cannot write)");
  EXPECT_TRUE(std::regex_search(out, warned)) << out;
}

// async_depth takes 1 to CLVF_MAX_IN_FLIGHT frames on the device at once, in every filter; other
// values stop ffmpeg with a message naming the option and the range.
TEST_F(FfmpegFilterOptions, AsyncDepthOutsideItsRangeIsRefused) {
  for (const char* filter : {"scale_clvf=w=32:h=24", "denoise_clvf=s=4", "colorspace_clvf=matrix=bt709", "clvf=chain=denoise_clvf"})
    for (int depth : {0, 1, CLVF_MAX_IN_FLIGHT, CLVF_MAX_IN_FLIGHT + 1}) {
      const ProcessResult r = run_ffmpeg(fmt::format(
          "-f lavfi -i testsrc2=size=64x48 -frames:v 2 -vf format=yuv420p,{}:async_depth={} -f null -", filter, depth));
      const bool allowed = depth >= 1 && depth <= CLVF_MAX_IN_FLIGHT;
      EXPECT_EQ(r.status == 0, allowed) << filter << " async_depth=" << depth << ":\n" << r.output;
      if (!allowed) {
        EXPECT_NE(r.output.find("async_depth"), std::string::npos) << r.output;
        EXPECT_NE(r.output.find(fmt::format("[1 - {}]", CLVF_MAX_IN_FLIGHT)), std::string::npos) << r.output;
      }
    }
}

}  // namespace
}  // namespace clvf::detail::test
