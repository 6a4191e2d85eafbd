#include "ffmpeg_support.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>

namespace clvf::detail::test {

namespace fs = std::filesystem;

ProcessResult run_ffmpeg(const std::string& args) {
  return run_command(std::string(CLVF_FFMPEG) + " -hide_banner -nostdin -loglevel error " + args);
}

ProcessResult run_command(const std::string& command) {
  const std::string cmd = command + " 2>&1";
  ProcessResult r{0, {}};
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {-1, "popen failed"};
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) r.output.append(buf, n);
  r.status = pclose(p);
  return r;
}

std::vector<uint8_t> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const fs::path& p, const std::vector<uint8_t>& bytes) {
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

std::vector<std::vector<RefPlane>> split_frames(const std::vector<uint8_t>& raw, clvf_pixel_format f, int w, int h) {
  std::vector<std::vector<RefPlane>> frames;
  size_t pos = 0;
  while (pos < raw.size()) {
    auto planes = plane_shapes(f, w, h);
    for (auto& pl : planes) {
      const size_t n = size_t(pl.w) * pl.h * pl.channels;
      if (pos + n > raw.size()) return frames;
      pl.data.assign(raw.begin() + pos, raw.begin() + pos + n);
      pos += n;
    }
    frames.push_back(std::move(planes));
  }
  return frames;
}

double psnr(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  double se = 0;
  for (size_t i = 0; i < a.size(); ++i) se += double(a[i] - b[i]) * (a[i] - b[i]);
  if (se == 0) return 99;
  return 10 * std::log10(255.0 * 255.0 * a.size() / se);
}

void FfmpegTest::SetUp() {
  ASSERT_TRUE(fs::exists(CLVF_FFMPEG)) << CLVF_FFMPEG << " is missing: run scripts/build.sh";
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  dir_ = fs::temp_directory_path() / fmt::format("clvf-e2e-{}-{}-{}", ::getpid(), info->test_suite_name(), info->name());
  fs::create_directories(dir_);
}

void FfmpegTest::TearDown() { fs::remove_all(dir_); }

fs::path FfmpegTest::filter(const fs::path& in, const char* pix_fmt, int w, int h, const std::string& chain,
                            const std::string& pre) {
  return convert(in, pix_fmt, w, h, chain, pix_fmt, pre);
}

fs::path FfmpegTest::convert(const fs::path& in, const char* pix_fmt, int w, int h, const std::string& chain,
                             const char* out_pix_fmt, const std::string& pre) {
  const fs::path out = dir_ / fmt::format("out-{}.raw", count_++);
  const ProcessResult r = run_ffmpeg(fmt::format("{} -f rawvideo -pix_fmt {} -s {}x{} -i {} -vf \"{}\" -f rawvideo -pix_fmt {} -y {}",
                                                 pre, pix_fmt, w, h, in.string(), chain, out_pix_fmt, out.string()));
  EXPECT_EQ(r.status, 0) << chain << "\n" << r.output;
  return out;
}

void FfmpegTest::expect_failure(const std::string& vf, const std::string& expect) {
  const ProcessResult r = run_ffmpeg("-f lavfi -i testsrc2=size=64x48 -frames:v 1 -vf \"" + vf + "\" -f null -");
  EXPECT_NE(r.status, 0) << vf;
  EXPECT_NE(r.output.find(expect), std::string::npos) << vf << ":\n" << r.output;
}

}  // namespace clvf::detail::test
