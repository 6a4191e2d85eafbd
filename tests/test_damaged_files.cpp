// Damaged and odd input files through build/bin/ffmpeg with clvf filters, beside the same command
// with FFmpeg's CPU filters (the stock behaviour): the same exit status and the same frames
// decoded, never a crash or a hang (each run is bounded), and no error blamed on a clvf filter.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <unistd.h>

#include <random>
#include <sstream>

#include "media_files.hpp"

namespace clvf::detail::test {
namespace {

namespace fs = std::filesystem;

// H.264 (a keyframe every 10 frames) + AAC, 2 s.
const std::string kRecipe =
    "-f lavfi -i testsrc2=s=320x240:r=25:d=2,noise=alls=10:allf=t -f lavfi -i sine=f=440:r=48000:d=2 "
    "-c:v libx264 -preset veryfast -g 10 -c:a aac";

struct Damage {
  const char* name;
  const char* ext;     // the sample's container
  const char* as_ext;  // the damaged file's extension
  // Makes the damaged bytes from the sample's.
  std::vector<uint8_t> (*damage)(std::vector<uint8_t>);
};

std::vector<uint8_t> first_half(std::vector<uint8_t> b) { return {b.begin(), b.begin() + b.size() / 2}; }
std::vector<uint8_t> first_60_percent(std::vector<uint8_t> b) { return {b.begin(), b.begin() + b.size() * 6 / 10}; }
std::vector<uint8_t> garbage_in_middle(std::vector<uint8_t> b) {
  std::mt19937 rng(7);
  for (size_t i = b.size() / 2; i < b.size() / 2 + 6000 && i < b.size(); ++i) b[i] = uint8_t(rng());
  return b;
}
// A transport stream cut at a packet boundary past its first keyframe: it begins mid-GOP, so its
// first frames reference pictures the file no longer has.
std::vector<uint8_t> cut_start(std::vector<uint8_t> b) {
  const size_t from = (b.size() * 3 / 10) / 188 * 188;
  return {b.begin() + std::ptrdiff_t(from), b.end()};
}
std::vector<uint8_t> same(std::vector<uint8_t> b) { return b; }
std::vector<uint8_t> nothing(std::vector<uint8_t>) { return {}; }
std::vector<uint8_t> text(std::vector<uint8_t>) {
  const std::string s = "this is not a video file, only text that ends in .mp4\n";
  return {s.begin(), s.end()};
}

void PrintTo(const Damage& d, std::ostream* os) { *os << d.name; }

const Damage kDamages[] = {
    {"truncated_mp4", "mp4", "mp4", first_half},  // the index (moov) is at the end: nothing to read
    {"truncated_mkv", "mkv", "mkv", first_60_percent},
    {"truncated_ts", "ts", "ts", first_half},
    {"garbage_in_middle_mkv", "mkv", "mkv", garbage_in_middle},
    {"garbage_in_middle_ts", "ts", "ts", garbage_in_middle},
    {"garbage_in_middle_mp4", "mp4", "mp4", garbage_in_middle},
    {"wrong_extension", "mkv", "mp4", same},
    {"first_frames_undecodable", "ts", "ts", cut_start},
    {"zero_bytes", "mp4", "mp4", nothing},
    {"not_a_video", "mp4", "mp4", text},
};

struct Decoded {
  ProcessResult process;
  int video_frames = 0;
};

class DamagedFiles : public ::testing::TestWithParam<Damage> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / fmt::format("damaged-input-{}-{}", ::getpid(), GetParam().name);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  // Decodes `in` through `vf` into per-frame checksums of the video (framecrc), bounded.
  Decoded decode(const fs::path& in, const std::string& vf, const char* tag) {
    const fs::path out = dir_ / fmt::format("{}.crc", tag);
    Decoded r;
    r.process = run_ffmpeg_bounded("5.1", fmt::format("-i '{}' -map 0:v? -vf '{}' -f framecrc -y '{}'", in.string(),
                                                      vf, out.string()),
                                   120);
    const std::vector<uint8_t> crc = read_file(out);
    std::istringstream lines(std::string(crc.begin(), crc.end()));
    for (std::string line; std::getline(lines, line);)
      if (line.rfind("0,", 0) == 0) ++r.video_frames;
    return r;
  }
  fs::path dir_;
};

TEST_P(DamagedFiles, EndsAsStockFfmpegDoes) {
  const Damage& d = GetParam();
  const fs::path sample = make_sample(fmt::format("damage-base-{}", d.ext), d.ext, kRecipe);
  ASSERT_TRUE(fs::exists(sample));
  const fs::path in = dir_ / fmt::format("input.{}", d.as_ext);
  write_file(in, d.damage(read_file(sample)));

  const Decoded clvf = decode(in, "scale_clvf=w=160:h=-2,denoise_clvf", "clvf");
  const Decoded cpu = decode(in, "scale=w=160:h=-2,nlmeans", "cpu");
  // Killed (124 timeout, 128+ a signal) is never an answer.
  EXPECT_LT(clvf.process.status, 124) << clvf.process.output;
  EXPECT_EQ(clvf.process.status, cpu.process.status) << "clvf:\n" << clvf.process.output << "\nCPU filters:\n"
                                                     << cpu.process.output;
  EXPECT_EQ(clvf.video_frames, cpu.video_frames);
  // FFmpeg's own messages about the file, none from a clvf filter (the folder's name has no "clvf").
  EXPECT_EQ(clvf.process.output.find("clvf"), std::string::npos) << clvf.process.output;
}

INSTANTIATE_TEST_SUITE_P(Inputs, DamagedFiles, ::testing::ValuesIn(kDamages),
                         [](const ::testing::TestParamInfo<Damage>& i) { return std::string(i.param.name); });

}  // namespace
}  // namespace clvf::detail::test
