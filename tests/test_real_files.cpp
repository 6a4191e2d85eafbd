// Files as users have them, end to end through build/bin/ffmpeg: the containers and codecs people
// meet (with audio, subtitles, language tags, rotation, variable frame rate, interlacing), each
// through every clvf filter and a chain preset, with FFmpeg's default stream selection and with
// `-map 0 -c:a copy -c:s copy`, each beside the same command with FFmpeg's CPU filters: the same
// streams, frame count and duration within a frame, the same frame times and start times, the same
// metadata. The samples are made by the build's own ffmpeg (tests/media_files.cpp).
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "media_files.hpp"

namespace clvf::detail::test {
namespace {

namespace fs = std::filesystem;

// 1.2 s at 25 fps, noisy (so that denoise changes something), audio from lavfi's sine.
const std::string kVideo = "-f lavfi -i testsrc2=s=320x240:r=25:d=1.2,noise=alls=10:allf=t";
const std::string kAudio = "-f lavfi -i sine=f=440:r=48000:d=1.2";
// libvpx-vp9's defaults take seconds for these 30 frames; what is compared here does not depend on
// the encoder's speed, so the sample and the transcodes both encode VP9 so.
const std::string kVp9Realtime = "-deadline realtime -cpu-used 8";

fs::path subtitles_file() {
  const fs::path p = fs::path(CLVF_TEST_SAMPLES) / "subtitles.ass";
  if (fs::exists(p)) return p;
  fs::create_directories(p.parent_path());
  const fs::path tmp = p.string() + fmt::format(".tmp{}", ::getpid());
  std::ofstream(tmp) << "[Script Info]\nScriptType: v4.00+\nPlayResX: 320\nPlayResY: 240\n\n"
                        "[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, Bold, Italic, Alignment\n"
                        "Style: Default,Sans,16,&H00FFFFFF,0,0,2\n\n"
                        "[Events]\nFormat: Layer, Start, End, Style, Text\n"
                        "Dialogue: 0,0:00:00.10,0:00:00.60,Default,first line\n"
                        "Dialogue: 0,0:00:00.70,0:00:01.10,Default,second line\n";
  fs::rename(tmp, p);
  return p;
}

struct Container {
  const char* name;
  const char* ext;
  std::string recipe;     // ffmpeg arguments that make the sample (the output file follows)
  std::string input_opt;  // options before -i when the sample is read
  std::string encoder_opt = {};  // options for the transcodes' video encoder (none: its defaults)
};

std::vector<Container> containers() {
  return {
      {"mp4-h264-aac", "mp4",
       kVideo + " " + kAudio + " -c:v libx264 -preset veryfast -pix_fmt yuv420p -colorspace bt709 -color_primaries bt709 "
                               "-color_trc bt709 -c:a aac -metadata:s:a:0 language=eng", ""},
      {"mkv-hevc-opus-ass", "mkv",
       kVideo + " -itsoffset 0.1 " + kAudio + " -i " + subtitles_file().string() +
           " -map 0 -map 1 -map 2 -c:v libx265 -preset ultrafast -x265-params log-level=error -c:a libopus -c:s ass "
           "-metadata:s:a:0 language=fre -metadata:s:s:0 language=eng -metadata title=sample", ""},
      {"avi-mjpeg-mp3", "avi", kVideo + " " + kAudio + " -c:v mjpeg -q:v 4 -c:a libmp3lame", ""},
      {"ts-h264-ac3", "ts", kVideo + " " + kAudio + " -c:v libx264 -preset veryfast -c:a ac3 -metadata:s:a:0 language=deu", ""},
      {"webm-vp9-vorbis", "webm",
       kVideo + " " + kAudio + " -c:v libvpx-vp9 " + kVp9Realtime + " -c:a libvorbis", "", kVp9Realtime},
      {"mov-rotated", "mov", kVideo + " " + kAudio + " -c:v libx264 -preset veryfast -c:a aac -metadata:s:v:0 rotate=90", ""},
      // The same file with its rotation kept as metadata instead of applied to the pixels.
      {"mov-rotated-noautorotate", "mov",
       kVideo + " " + kAudio + " -c:v libx264 -preset veryfast -c:a aac -metadata:s:v:0 rotate=90", "-noautorotate"},
      {"mkv-vfr", "mkv",
       "-f lavfi -i 'testsrc2=s=320x240:r=25:d=1.2,setpts=N/25/TB+0.013*mod(N\\,3)/TB' " + kAudio +
           " -fps_mode passthrough -c:v libx264 -preset veryfast -c:a libvorbis", ""},
      {"ts-interlaced-mp2", "ts",
       kVideo + ",setfield=tff " + kAudio + " -c:v libx264 -preset veryfast -flags +ildct+ilme -x264-params tff=1 -c:a mp2",
       ""},
  };
}

struct Filter {
  const char* name;
  const char* clvf;
  const char* cpu;  // the same job with FFmpeg's CPU filters
};

// nlmeans with a 3 x 3 search window: only streams, times and metadata are compared here, and its
// full window (15 x 15) costs seconds a file on two cores.
const Filter kFilters[] = {
    {"scale", "scale_clvf=w=160:h=-2", "scale=w=160:h=-2"},
    {"denoise", "denoise_clvf", "nlmeans=p=3:r=3"},
    {"colorspace", "colorspace_clvf=matrix=bt709", "scale=out_color_matrix=bt709,setparams=colorspace=bt709"},
    {"chain_preset", "clvf=archive-denoise", "nlmeans=s=7.5:p=3:r=3"},
};

enum class Streams { Default, MapAllCopy };

struct Case {
  Container container;
  Filter filter;
  Streams streams;
  std::string series;  // build/bin/ffmpeg (5.1) or build/bin/ffmpeg-7.1
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.container.name << " through " << c.filter.clvf << " (FFmpeg " << c.series << ")";
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string n = fmt::format("{}_{}_{}{}", info.param.container.name, info.param.filter.name,
                              info.param.streams == Streams::Default ? "default" : "map_all_copy",
                              info.param.series == "5.1" ? "" : "_ffmpeg" + info.param.series);
  for (char& c : n)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

std::vector<Case> cases() {
  std::vector<Case> all;
  for (const Container& c : containers())
    for (const Filter& f : kFilters)
      for (Streams s : {Streams::Default, Streams::MapAllCopy}) {
        all.push_back({c, f, s, "5.1"});
        // FFmpeg 7.1 (Debian 13's, configured as Debian does): the chain filter over every file.
        if (f.name == std::string("chain_preset")) all.push_back({c, f, s, "7.1"});
      }
  return all;
}

class RealFiles : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    // One level: a parameterised test's name holds a '/', which would leave its parent behind.
    std::string name = info->name();
    std::replace(name.begin(), name.end(), '/', '-');
    dir_ = fs::temp_directory_path() / fmt::format("clvf-real-{}-{}", ::getpid(), name);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

// Fields that must agree between the clvf and CPU outputs, on every stream.
const char* kSameFields[] = {"codec_type", "codec_name", "width", "height", "sample_rate", "channels",
                             "color_range", "color_space", "color_transfer", "color_primaries", "field_order",
                             "side_data_list.side_data.0.side_data_type", "side_data_list.side_data.0.rotation"};

TEST_P(RealFiles, StreamsFramesTimesAndMetadataAsTheCpuFilters) {
  const Case& c = GetParam();
  // As tests/ffmpeg_versions.sh: scripts/build.sh builds 5.1 only; scripts/test.sh builds both.
  if (!fs::exists(ffmpeg_binary(c.series)))
    GTEST_SKIP() << ffmpeg_binary(c.series).string() << " is not built (FFMPEG_SERIES=" << c.series
                 << " bash scripts/build-ffmpeg.sh)";
  const fs::path in = make_sample(c.container.name, c.container.ext, c.container.recipe);
  ASSERT_TRUE(fs::exists(in));
  const std::string streams = c.streams == Streams::MapAllCopy ? "-map 0 -c:a copy -c:s copy" : "";
  auto transcode = [&](const char* vf, const char* tag) {
    const fs::path out = dir_ / fmt::format("{}.{}", tag, c.container.ext);
    const ProcessResult r = run_ffmpeg_bounded(
        c.series, fmt::format("{} -i '{}' {} -vf '{}' {} -y '{}'", c.container.input_opt, in.string(), streams, vf,
                              c.container.encoder_opt, out.string()));
    EXPECT_EQ(r.status, 0) << vf << ":\n" << r.output;
    return out;
  };
  const MediaInfo source = probe(in);
  const MediaInfo clvf = probe(transcode(c.filter.clvf, "clvf"));
  const MediaInfo cpu = probe(transcode(c.filter.cpu, "cpu"));
  ASSERT_EQ(source.error, "");
  ASSERT_EQ(clvf.error, "");
  ASSERT_EQ(cpu.error, "");

  // Every stream there, as the CPU path has them (and with -map 0, every stream of the input).
  ASSERT_EQ(clvf.streams.size(), cpu.streams.size());
  if (c.streams == Streams::MapAllCopy) {
    ASSERT_EQ(clvf.streams.size(), source.streams.size());
    for (size_t i = 0; i < source.streams.size(); ++i)
      EXPECT_EQ(clvf.field(i, "codec_type"), source.field(i, "codec_type")) << "stream " << i;
  }
  for (size_t i = 0; i < cpu.streams.size(); ++i) {
    for (const char* key : kSameFields) EXPECT_EQ(clvf.field(i, key), cpu.field(i, key)) << "stream " << i << " " << key;
    // Start times kept, and every tag (language, title, handler, rotate, ...).
    const double a = std::atof(clvf.field(i, "start_time").c_str()), b = std::atof(cpu.field(i, "start_time").c_str());
    EXPECT_NEAR(a, b, 0.0015) << "stream " << i << " start_time";
    for (const auto& [key, value] : cpu.streams[i]) {
      if (key.rfind("tags.", 0) == 0 && key != "tags.DURATION") {
        EXPECT_EQ(clvf.field(i, key), value) << "stream " << i << " " << key;
      }
    }
  }
  for (const auto& [key, value] : cpu.format) {
    if (key.rfind("tags.", 0) == 0) {
      EXPECT_EQ(clvf.format.count(key) ? clvf.format.at(key) : "", value) << "format " << key;
    }
  }

  // Frames: the same count within one, the same times, the same duration within a frame.
  ASSERT_FALSE(cpu.video_times.empty());
  EXPECT_NEAR(double(clvf.video_times.size()), double(cpu.video_times.size()), 1.0);
  const size_t n = std::min(clvf.video_times.size(), cpu.video_times.size());
  for (size_t i = 0; i < n; ++i) EXPECT_NEAR(clvf.video_times[i], cpu.video_times[i], 0.0015) << "frame " << i;
  EXPECT_NEAR(std::atof(clvf.format.at("duration").c_str()), std::atof(cpu.format.at("duration").c_str()), 0.041);
}

INSTANTIATE_TEST_SUITE_P(Containers, RealFiles, ::testing::ValuesIn(cases()), case_name);

}  // namespace
}  // namespace clvf::detail::test
