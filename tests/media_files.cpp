#include "media_files.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace clvf::detail::test {

namespace fs = std::filesystem;

ProcessResult run_bounded(const std::string& command, int seconds) {
  const std::string cmd = fmt::format("timeout -k 5 {} {} 2>&1", seconds, command);
  ProcessResult r{0, {}};
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {-1, "popen failed"};
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) r.output.append(buf, n);
  const int status = pclose(p);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

static fs::path bin_dir() { return fs::path(CLVF_FFMPEG).parent_path(); }

fs::path ffmpeg_binary(const std::string& series) {
  return bin_dir() / (series == "5.1" ? "ffmpeg" : "ffmpeg-" + series);
}

ProcessResult run_ffmpeg_bounded(const std::string& series, const std::string& args, int seconds) {
  return run_bounded(fmt::format("{} -hide_banner -nostdin -loglevel error {}", ffmpeg_binary(series).string(), args),
                     seconds);
}

std::string MediaInfo::field(size_t stream, const std::string& key) const {
  if (stream >= streams.size()) return {};
  const auto it = streams[stream].find(key);
  return it == streams[stream].end() ? std::string() : it->second;
}

int MediaInfo::first_of(const std::string& codec_type) const {
  for (size_t i = 0; i < streams.size(); ++i)
    if (field(i, "codec_type") == codec_type) return int(i);
  return -1;
}

// ffprobe's flat writer: `streams.stream.N.KEY=VALUE` and `format.KEY=VALUE`, strings quoted.
static void read_flat(const std::string& text, MediaInfo& info) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    if (key.rfind("format.", 0) == 0) {
      info.format[key.substr(7)] = value;
    } else if (key.rfind("streams.stream.", 0) == 0) {
      const size_t dot = key.find('.', 15);
      if (dot == std::string::npos) continue;
      const size_t n = std::stoul(key.substr(15, dot - 15));
      if (info.streams.size() <= n) info.streams.resize(n + 1);
      info.streams[n][key.substr(dot + 1)] = value;
    }
  }
}

MediaInfo probe(const fs::path& file) {
  MediaInfo info;
  const std::string ffprobe = (bin_dir() / "ffprobe").string();
  const ProcessResult r = run_bounded(
      fmt::format("{} -v error -show_streams -show_format -of flat '{}'", ffprobe, file.string()), 60);
  if (r.status != 0) {
    info.error = r.output.empty() ? fmt::format("ffprobe exit status {}", r.status) : r.output;
    return info;
  }
  read_flat(r.output, info);
  const ProcessResult t = run_bounded(fmt::format("{} -v error -select_streams v:0 -show_entries "
                                                  "frame=best_effort_timestamp_time -of csv=p=0 '{}'",
                                                  ffprobe, file.string()),
                                      120);
  if (t.status != 0) {
    info.error = t.output;
    return info;
  }
  std::istringstream in(t.output);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty() && line != "N/A") info.video_times.push_back(std::stod(line));
  return info;
}

fs::path make_sample(const std::string& name, const std::string& ext, const std::string& args) {
  const fs::path dir = CLVF_TEST_SAMPLES;
  fs::create_directories(dir);
  const fs::path out = dir / fmt::format("{}-{:016x}.{}", name, std::hash<std::string>{}(args), ext);
  if (fs::exists(out)) return out;
  // Made under a name of this process's, then renamed: a reader never sees half a file.
  const fs::path tmp = dir / fmt::format("{}.tmp{}.{}", out.stem().string(), ::getpid(), ext);
  const ProcessResult r = run_ffmpeg_bounded("5.1", fmt::format("{} -y '{}'", args, tmp.string()), 300);
  if (r.status != 0) {
    fs::remove(tmp);
    ADD_FAILURE() << "making sample " << name << " failed (" << args << "):\n" << r.output;
    return out;
  }
  fs::rename(tmp, out);
  return out;
}

}  // namespace clvf::detail::test
