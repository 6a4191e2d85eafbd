// What the real-file tests share: commands bounded in time, ffprobe's view of a file, and sample
// files made once by the build's own ffmpeg and kept for every test process.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "ffmpeg_support.hpp"

namespace clvf::detail::test {

// Runs a shell command, stdout and stderr together, killed after `seconds` (status 124 then).
ProcessResult run_bounded(const std::string& command, int seconds);

// `build/bin/ffmpeg` for series "5.1", else `build/bin/ffmpeg-<series>` (built by scripts/test.sh).
std::filesystem::path ffmpeg_binary(const std::string& series);

// That binary with the arguments, bounded in time.
ProcessResult run_ffmpeg_bounded(const std::string& series, const std::string& args, int seconds = 180);

// A file as ffprobe reads it: each stream's fields (`codec_type`, `tags.language`,
// `side_data_list.side_data.0.rotation`, ...), the format's, and each video frame's time.
struct MediaInfo {
  std::vector<std::map<std::string, std::string>> streams;
  std::map<std::string, std::string> format;
  std::vector<double> video_times;  // best-effort timestamps of the first video stream's frames
  std::string error;                // set when ffprobe failed
  std::string field(size_t stream, const std::string& key) const;
  int first_of(const std::string& codec_type) const;  // index of the first such stream, or -1
};
MediaInfo probe(const std::filesystem::path& file);

// A sample made by `build/bin/ffmpeg <args> OUT` into the shared samples folder once: later calls
// (from any test process) find it there. The name includes a hash of the arguments, so a changed
// recipe makes a new file.
std::filesystem::path make_sample(const std::string& name, const std::string& ext, const std::string& args);

}  // namespace clvf::detail::test
