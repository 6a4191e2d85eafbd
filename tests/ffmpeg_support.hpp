// What the end-to-end tests share: running the built ffmpeg, raw files, frames, PSNR, and a
// fixture with a scratch folder.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "reference_scale.hpp"
#include "test_frames.hpp"

namespace clvf::detail::test {

struct ProcessResult {
  int status;
  std::string output;
};

// Runs a shell command line; its output is stdout and stderr together.
ProcessResult run_command(const std::string& cmd);
// Runs build/bin/ffmpeg with these arguments (errors only on its output).
ProcessResult run_ffmpeg(const std::string& args);
std::vector<uint8_t> read_file(const std::filesystem::path& p);
void write_file(const std::filesystem::path& p, const std::vector<uint8_t>& bytes);
// Splits raw frames of a 4:2:0 format into planes.
std::vector<std::vector<RefPlane>> split_frames(const std::vector<uint8_t>& raw, clvf_pixel_format f, int w, int h);
double psnr(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b);

class FfmpegTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  // Runs `-f rawvideo -pix_fmt F -s WxH -i in [pre] -vf chain` into a new raw file of pix_fmt.
  std::filesystem::path filter(const std::filesystem::path& in, const char* pix_fmt, int w, int h,
                               const std::string& chain, const std::string& pre = "");
  // The same with another output pix_fmt.
  std::filesystem::path convert(const std::filesystem::path& in, const char* pix_fmt, int w, int h,
                                const std::string& chain, const char* out_pix_fmt, const std::string& pre = "");
  // Runs `-f lavfi -i testsrc2=size=64x48 -vf vf` for one frame; expects failure with `expect` in
  // the message.
  void expect_failure(const std::string& vf, const std::string& expect);

  std::filesystem::path dir_;
  int count_ = 0;
};

}  // namespace clvf::detail::test
