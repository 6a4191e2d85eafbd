// End to end through the built FFmpeg: scale_clvf on real command lines. Outputs are compared
// with the float64 reference (within rounding), the OpenCL-frames path with the system-memory
// path (identical), and zscale/swscale with the same filter (PSNR); bad options must fail with a
// message that names what was wrong.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "ffmpeg_support.hpp"
#include "reference_scale.hpp"
#include "test_frames.hpp"

namespace clvf::detail::test {
namespace {

namespace fs = std::filesystem;

class FfmpegScale : public FfmpegTest {
 protected:

  // A noisy test pattern as raw frames, the input every comparison starts from.
  fs::path make_input(const char* pix_fmt, int w, int h, int frames = 2) {
    const fs::path p = dir_ / fmt::format("in-{}-{}x{}.raw", pix_fmt, w, h);
    // testsrc2 makes even sizes only: odd ones are cropped from the next even size.
    const ProcessResult r = run_ffmpeg(fmt::format("-f lavfi -i testsrc2=size={}x{}:rate=25,crop={}:{}:0:0:exact=1,noise=alls=12:allf=t+u "
                                  "-frames:v {} -pix_fmt {} -f rawvideo -y {}",
                                  w + w % 2, h + h % 2, w, h, frames, pix_fmt, p.string()));
    EXPECT_EQ(r.status, 0) << r.output;
    return p;
  }
  fs::path scale(const fs::path& in, const char* pix_fmt, int w, int h, const std::string& chain,
                 const std::string& pre = "") {
    return filter(in, pix_fmt, w, h, chain, pre);
  }
};

struct E2ECase {
  const char* pix_fmt;
  int sw, sh, dw, dh;
  const char* algorithm;
  double param0, param1;  // bicubic B, C; lanczos taps in param0
};

RefScale ref_params(const E2ECase& k) {
  RefScale rs;
  clvf_scale_algorithm a;
  EXPECT_EQ(clvf_scale_algorithm_from_name(k.algorithm, &a), CLVF_OK);
  rs.algorithm = a;
  if (a == CLVF_SCALE_LANCZOS) rs.taps = static_cast<int>(k.param0);
  rs.b = k.param0, rs.c = k.param1;
  rs.luma_src_w = k.sw, rs.luma_src_h = k.sh, rs.luma_dst_w = k.dw, rs.luma_dst_h = k.dh;
  return rs;
}

TEST_F(FfmpegScale, OutputEqualsReferenceWithinRounding) {
  const E2ECase cases[] = {
      {"nv12", 1920, 1080, 1280, 720, "bicubic", 0.0, 0.6},
      {"yuv420p", 1280, 720, 1920, 1080, "bicubic", 1.0 / 3, 1.0 / 3},
      {"yuv420p", 333, 211, 102, 480, "bilinear", 0, 0},
      {"nv12", 64, 48, 2, 2, "bicubic", 0.0, 0.5},
      {"nv12", 853, 479, 1280, 720, "lanczos", 4, 0},
      {"yuv420p", 1920, 1080, 640, 360, "spline36", 0, 0},
      {"yuv420p", 1001, 601, 250, 150, "area", 0, 0},
      {"nv12", 99, 77, 300, 202, "point", 0, 0},
  };
  for (const auto& k : cases) {
    SCOPED_TRACE(fmt::format("{} {}x{} -> {}x{} {}", k.pix_fmt, k.sw, k.sh, k.dw, k.dh, k.algorithm));
    const clvf_pixel_format f = std::string(k.pix_fmt) == "nv12" ? CLVF_PIX_NV12 : CLVF_PIX_YUV420P;
    const auto in = make_input(k.pix_fmt, k.sw, k.sh);
    const auto out = scale(in, k.pix_fmt, k.sw, k.sh,
                           fmt::format("scale_clvf=w={}:h={}:algorithm={}:param0={}:param1={}", k.dw, k.dh,
                                       k.algorithm, k.param0, k.param1));
    const auto src_frames = split_frames(read_file(in), f, k.sw, k.sh);
    const auto out_frames = split_frames(read_file(out), f, k.dw, k.dh);
    ASSERT_EQ(src_frames.size(), 2u);
    ASSERT_EQ(out_frames.size(), src_frames.size());
    for (size_t n = 0; n < src_frames.size(); ++n)
      for (size_t i = 0; i < src_frames[n].size(); ++i) {
        RefScale rs = ref_params(k);
        if (i > 0) rs.subsampling = 2, rs.siting_x = 0.0, rs.siting_y = 0.5;  // FFmpeg's default: left
        const auto& got = out_frames[n][i];
        const auto ref = reference_scale(src_frames[n][i], got.w, got.h, rs);
        size_t bad = 0;
        for (size_t s = 0; s < ref.size(); ++s)
          bad += std::abs(got.data[s] - std::clamp(ref[s], 0.0, 255.0)) > 0.52;
        EXPECT_EQ(bad, 0u) << "frame " << n << " plane " << i;
      }
  }
}

// OpenCL frames are images, which the two-pass kernels serve; system-memory frames on a CPU
// device go through the one-pass block kernel, whose sums run in another order (a tie may round
// the other way). With the two-pass kernels for both, the paths give identical bytes.
TEST_F(FfmpegScale, OpenCLFramesPathEqualsSystemMemoryPath) {
  const auto in = make_input("yuv420p", 640, 360);
  const std::string hw_dev = "-init_hw_device opencl=ocl:0.0 -filter_hw_device ocl";
  const auto block = read_file(scale(in, "yuv420p", 640, 360, "scale_clvf=w=416:h=-2"));
  ASSERT_EQ(setenv("CLVF_SCALE_KERNELS", "cpu", 1), 0);
  const auto sw = scale(in, "yuv420p", 640, 360, "scale_clvf=w=416:h=-2");
  const auto hw = scale(in, "yuv420p", 640, 360, "hwupload,scale_clvf=w=416:h=-2,hwdownload,format=yuv420p", hw_dev);
  unsetenv("CLVF_SCALE_KERNELS");
  const auto a = read_file(sw), b = read_file(hw);
  EXPECT_EQ(a.size(), size_t(416 * 234 * 3 / 2) * 2);
  EXPECT_TRUE(a == b) << "hwupload path differs from the system-memory path";
  ASSERT_EQ(block.size(), a.size());
  size_t differ = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_LE(std::abs(int(block[i]) - int(a[i])), 1) << "sample " << i;
    differ += block[i] != a[i];
  }
  EXPECT_LT(differ, a.size() / 1000) << "block and two-pass kernels differ in more than rounding ties";
  // System-memory frames on the device given with -filter_hw_device.
  const auto dev = scale(in, "yuv420p", 640, 360, "scale_clvf=w=416:h=-2", hw_dev);
  EXPECT_TRUE(read_file(dev) == block);
}

// Per plane: PSNR and the largest difference of two frames, printed and recorded.
// Per plane: PSNR at least the minimum; luma never more than max_luma_error levels off; at most
// far_share of the chroma samples more than 1 level off (negative: not checked).
void compare_planes(const std::vector<uint8_t>& ours, const std::vector<uint8_t>& theirs, int w, int h,
                    const std::string& what, double min_luma_db, double min_chroma_db, int max_luma_error = 255,
                    double far_share = -1) {
  ASSERT_EQ(theirs.size(), ours.size()) << what;
  const auto a = split_frames(ours, CLVF_PIX_YUV420P, w, h), b = split_frames(theirs, CLVF_PIX_YUV420P, w, h);
  for (size_t i = 0; i < 3; ++i) {
    const auto& x = a[0][i].data;
    const auto& y = b[0][i].data;
    const double db = psnr(x, y);
    int max_err = 0;
    size_t far = 0;
    for (size_t n = 0; n < x.size(); ++n) {
      const int e = std::abs(x[n] - y[n]);
      max_err = std::max(max_err, e);
      far += e > 1;
    }
    const double share = double(far) / double(x.size());
    ::testing::Test::RecordProperty(fmt::format("{}_plane{}", what, i), fmt::format("{:.2f} dB, max {}", db, max_err));
    std::printf("scale_clvf vs %-28s plane %zu: PSNR %6.2f dB, max error %d, %.4f%% more than 1 off\n", what.c_str(),
                i, db, max_err, 100 * share);
    EXPECT_GE(db, i == 0 ? min_luma_db : min_chroma_db) << what << " plane " << i;
    if (i == 0) {
      EXPECT_LE(max_err, max_luma_error) << what << " luma";
    }
    if (i > 0 && far_share >= 0) {
      EXPECT_LE(share, far_share) << what << " plane " << i;
    }
  }
}

TEST_F(FfmpegScale, MatchesZscaleForEveryFilter) {
  constexpr double kFarShare = 0.0005;  // 0.05%; measured at most 0.028% (lanczos 5, V plane, 720p)
  // zscale (zimg) defines the same filters, sitings and edges. It rounds its weights to 14 bits
  // for 8-bit data and clips its 16-bit intermediate between the passes, so where ringing
  // overshoots it differs from clvf (whose float intermediate the float64 reference confirms)
  // by more than a level at a few chroma samples. FFmpeg 5.1's zscale has no spline64; the
  // kernel checker covers it.
  struct Pair {
    std::string ours, zscale;
  };
  const Pair pairs[] = {
      {"algorithm=point", "filter=point"},
      {"algorithm=bilinear", "filter=bilinear"},
      {"algorithm=bicubic:param0=0:param1=0.6", "filter=bicubic:param_a=0:param_b=0.6"},
      {"algorithm=bicubic", "filter=bicubic:param_a=0.333333333333:param_b=0.333333333333"},
      {"algorithm=lanczos:param0=3", "filter=lanczos:param_a=3"},
      {"algorithm=lanczos:param0=5", "filter=lanczos:param_a=5"},
      {"algorithm=spline16", "filter=spline16"},
      {"algorithm=spline36", "filter=spline36"},
  };
  const auto in = make_input("yuv420p", 1920, 1080, 1);
  for (const auto& [w, h] : {std::pair{1280, 720}, std::pair{2560, 1440}}) {
    for (const auto& p : pairs) {
      const auto ours = read_file(scale(in, "yuv420p", 1920, 1080, fmt::format("scale_clvf=w={}:h={}:{}", w, h, p.ours)));
      const auto theirs = read_file(scale(in, "yuv420p", 1920, 1080, fmt::format("zscale=w={}:h={}:{}", w, h, p.zscale)));
      // As docs/filters/scale_clvf.md says: 68-99 dB; luma within 1 level; chroma more than 1
      // level off only where ringing overshoots (zimg clips there), at few samples.
      compare_planes(ours, theirs, w, h, fmt::format("zscale {} {}x{}", p.zscale.substr(7), w, h), 68, 68, 1,
                     kFarShare);
    }
  }
}

TEST_F(FfmpegScale, MatchesSwscaleWithTheSameFilter) {
  // swscale works in 14-bit fixed point with its own chroma filtering (even told the siting, its
  // V plane stays near 44.6 dB against both clvf and the float64 reference): luma >= 45 dB,
  // chroma >= 40.
  const auto in = make_input("yuv420p", 1920, 1080, 1);
  const auto ours = read_file(scale(in, "yuv420p", 1920, 1080, "scale_clvf=w=1280:h=720:param0=0:param1=0.6"));
  const auto theirs = read_file(scale(in, "yuv420p", 1920, 1080,
                                      "scale=w=1280:h=720:flags=bicubic+accurate_rnd+full_chroma_int:param0=0:param1=0.6:"
                                      "in_h_chr_pos=0:in_v_chr_pos=128:out_h_chr_pos=0:out_v_chr_pos=128"));
  compare_planes(ours, theirs, 1280, 720, "swscale bicubic", 45, 40);
}

TEST_F(FfmpegScale, BadOptionsFailWithAClearMessage) {
  const struct {
    std::string vf, expect;
  } cases[] = {
      {"scale_clvf=algorithm=lanczos9", "allowed: point (or neighbor), bilinear, bicubic, lanczos"},
      {"scale_clvf=w=-7", "is odd: 4:2:0 output needs an even width and height"},
      {"scale_clvf=w=63:h=48", "is odd"},
      {"scale_clvf=w=iw*2:h=foo", "Undefined constant or missing '(' in 'foo'"},
      {"scale_clvf=param1=1.5", "param1"},
      {"scale_clvf=param0=2", "for bicubic each is allowed from 0 to 1"},
      {"scale_clvf=algorithm=lanczos:param0=2.5", "for lanczos it is the number of taps, an integer from 1 to 16"},
      {"scale_clvf=force_original_aspect_ratio=sideways", "force_original_aspect_ratio"},
      {"scale_clvf=device=no-such-device", "devices found"},
      {"scale_clvf=device=3.", "PLATFORM.DEVICE"},
      {"scale_clvf=w=20000:h=10", "each side must be 1 to 16384"},
      {"scale_clvf=format=gray", "option 'format': gray is not supported; allowed: nv12, yuv420p, p010le"},
      {"scale_clvf=matrix=4", "destination matrix 4 is not known; allowed: bt709"},
  };
  for (const auto& c : cases) expect_failure(c.vf, c.expect);
}

TEST_F(FfmpegScale, PresetsGiveTheirOptionsAndExplicitOptionsWin) {
  const auto in = make_input("yuv420p", 640, 480, 1);
  const auto read = [&](const std::string& chain) { return read_file(scale(in, "yuv420p", 640, 480, chain)); };
  const auto preset = read("scale_clvf=preset=web-720p");
  EXPECT_TRUE(preset == read("scale_clvf=w=1280:h=720:force_original_aspect_ratio=decrease:force_divisible_by=2:"
                             "algorithm=spline36"));
  EXPECT_EQ(preset.size(), size_t(960 * 720 * 3 / 2));
  const auto overridden = read("scale_clvf=preset=web-720p:algorithm=point:h=360");
  EXPECT_TRUE(overridden == read("scale_clvf=w=1280:h=360:force_original_aspect_ratio=decrease:"
                                 "force_divisible_by=2:algorithm=point"));
  // An explicit value equal to the default still wins over the preset.
  EXPECT_TRUE(read("scale_clvf=preset=upscale-sharp:param0=0.3333333333:param1=0.3333333333:w=320:h=240") ==
              read("scale_clvf=algorithm=bicubic:w=320:h=240"));

  // Preset files: the only entry, or PATH#NAME.
  const fs::path one = dir_ / "one.preset", many = dir_ / "many.preset", bad = dir_ / "bad.preset";
  std::ofstream(one) << "# a comment\n\nsmall: w=320:h=-2:algorithm=area\n";
  std::ofstream(many) << "a: w=160:h=120\nb: w=320:h=240:algorithm=lanczos:param0=5\n";
  std::ofstream(bad) << "ok: w=2\nthis line has no colon\n";
  EXPECT_TRUE(read(fmt::format("scale_clvf=preset={}", one.string())) == read("scale_clvf=w=320:h=-2:algorithm=area"));
  EXPECT_TRUE(read(fmt::format("scale_clvf=preset={}#b", many.string())) ==
              read("scale_clvf=w=320:h=240:algorithm=lanczos:param0=5"));

  const struct {
    std::string vf, expect;
  } errors[] = {
      {"scale_clvf=preset=nope", "preset 'nope' is not known for scale_clvf; known: web-720p, web-1080p"},
      {"scale_clvf=preset=" + many.string(), "holds 2 presets (a, b); name one as"},
      {"scale_clvf=preset=" + many.string() + "#c", "has no preset 'c'; it has: a, b"},
      {"scale_clvf=preset=" + bad.string(), "line 2: expected"},
      {"scale_clvf=preset=" + (dir_ / "missing.preset").string(), "cannot be read"},
      {"scale_clvf=preset=/dev/zero", "is larger than 1048576 bytes; preset files are short text"},
  };
  for (const auto& c : errors) expect_failure(c.vf, c.expect);
}

TEST_F(FfmpegScale, EveryShippedPresetRuns) {
  const std::string names = clvf_preset_names("scale_clvf");
  ASSERT_FALSE(names.empty());
  std::istringstream list(names);
  std::string name;
  int count = 0;
  while (std::getline(list, name, ',')) {
    name.erase(0, name.find_first_not_of(' '));
    const ProcessResult r = run_ffmpeg("-f lavfi -i testsrc2=size=320x240 -frames:v 1 -vf scale_clvf=preset=" + name + " -f null -");
    EXPECT_EQ(r.status, 0) << name << ":\n" << r.output;
    ++count;
  }
  EXPECT_GE(count, 5);
}

// Two MPEG-TS clips of 10 frames one after the other, 320x240 then 176x144: ffmpeg configures the
// filters again at the change.
class FfmpegSizeChange : public FfmpegScale {
 protected:
  void SetUp() override {
    FfmpegScale::SetUp();
    const fs::path a = dir_ / "a.ts", b = dir_ / "b.ts";
    for (const auto& [path, size] : {std::pair{a, "320x240"}, std::pair{b, "176x144"}})
      ASSERT_EQ(run_ffmpeg(fmt::format("-f lavfi -i testsrc2=size={}:rate=25 -frames:v 10 -pix_fmt yuv420p -c:v libx264 "
                                       "-f mpegts -y {}", size, path.string())).status, 0);
    auto bytes = read_file(a);
    const auto tail = read_file(b);
    bytes.insert(bytes.end(), tail.begin(), tail.end());
    write_file(dir_ / "ab.ts", bytes);
  }
  // The frame numbers (pts in 1/25 s) that come out of the clips through vf.
  std::set<int> frames_out(const std::string& vf) {
    const fs::path out = dir_ / "frames.md5";
    const ProcessResult r = run_ffmpeg(fmt::format("-i {} -vf \"{}\" -vsync passthrough -f framemd5 -y {}",
                                                   (dir_ / "ab.ts").string(), vf, out.string()));
    EXPECT_EQ(r.status, 0) << r.output;
    std::set<int> pts;
    const auto text = read_file(out);
    std::istringstream lines(std::string(text.begin(), text.end()));
    for (std::string line; std::getline(lines, line);) {
      int stream = 0, dts = 0, p = 0;
      if (line[0] != '#' && std::sscanf(line.c_str(), "%d, %d, %d", &stream, &dts, &p) == 3) pts.insert(p);
    }
    return pts;
  }
  static std::set<int> frames(int from, int to, std::set<int> but = {}) {
    std::set<int> s;
    for (int n = from; n < to; ++n)
      if (!but.count(n)) s.insert(n);
    return s;
  }
};

// FFmpeg frees the filter graph at a size change and makes a new one, with no end of stream, so by
// default (async_depth=1) a filter must not keep frames in flight when it gives control back. Every
// frame comes out, counted by its own timestamp (passthrough: no frames duplicated to fill a gap);
// with a temporal denoise, only the t frames it holds back before the change are lost (as with
// FFmpeg's own temporal filters), and the chain filter does the same.
TEST_F(FfmpegSizeChange, EveryFrameComesOut) {
  EXPECT_EQ(frames_out("scale_clvf=w=128:h=96,denoise_clvf=s=4:p=3:r=5,colorspace_clvf=format=rgba"), frames(0, 20));
  EXPECT_EQ(frames_out("scale_clvf=w=128:h=96,denoise_clvf=s=4:p=3:r=5:t=1,colorspace_clvf=format=rgba"),
            frames(0, 20, {9}));
  EXPECT_EQ(frames_out("clvf='chain=scale_clvf=w=128\\:h=96,denoise_clvf=s=4\\:p=3\\:r=5\\:t=1'"), frames(0, 20, {9}));
}

// With async_depth=3 a filter keeps two frames in flight between FFmpeg's calls: at the change
// those are lost (FFmpeg 5.1 hands the graph one frame at a time: exactly the last two before it),
// and nothing else; three such filters in a row lose the last six. (Lost frames show the option
// took effect: with nothing left in flight every frame would come out.)
TEST_F(FfmpegSizeChange, AsyncDepthLosesOnlyTheFramesInFlight) {
  EXPECT_EQ(frames_out("scale_clvf=w=128:h=96:async_depth=3"), frames(0, 20, {8, 9}));
  EXPECT_EQ(frames_out("scale_clvf=w=128:h=96:async_depth=3,denoise_clvf=s=4:p=3:r=5:async_depth=3,"
                       "colorspace_clvf=format=rgba:async_depth=3"),
            frames(0, 20, {4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(frames_out("scale_clvf=w=128:h=96:async_depth=2"), frames(0, 20, {9}));
}

// A stream that keeps its size gives the same frames, byte for byte and in order, whatever
// async_depth: the frames still in flight come out at the end.
TEST_F(FfmpegScale, AsyncDepthGivesTheSameFrames) {
  const fs::path in = dir_ / "in.nut";
  ASSERT_EQ(run_ffmpeg(fmt::format("-f lavfi -i testsrc2=size=176x144:rate=25,noise=alls=12:allf=t+u -frames:v 23 "
                                   "-pix_fmt yuv420p -c:v rawvideo -y {}", in.string())).status, 0);
  const auto md5s = [&](const std::string& vf) {
    const fs::path out = dir_ / "frames.md5";
    const ProcessResult r = run_ffmpeg(fmt::format("-i {} -vf \"{}\" -f framemd5 -y {}", in.string(), vf, out.string()));
    EXPECT_EQ(r.status, 0) << r.output;
    const auto text = read_file(out);
    return std::string(text.begin(), text.end());
  };
  // Also with host frames staged (the discrete-GPU path), where the filters free each input once
  // it is submitted: FFmpeg may then reuse its memory for the next one.
  for (const char* staged : {"0", "1"}) {
    SCOPED_TRACE(fmt::format("CLVF_NO_ZERO_COPY={}", staged));
    ASSERT_EQ(setenv("CLVF_NO_ZERO_COPY", staged, 1), 0);
    for (const std::string vf : {"scale_clvf=w=128:h=96", "denoise_clvf=s=4:p=3:r=5:t=1", "colorspace_clvf=format=rgba",
                                 "clvf='chain=scale_clvf=w=128\\:h=96,denoise_clvf=s=4\\:p=3\\:r=5'"}) {
      const std::string sync = md5s(vf), async = md5s(vf + ":async_depth=3");
      std::istringstream lines(sync);
      int count = 0;
      for (std::string line; std::getline(lines, line);) count += !line.empty() && line[0] != '#';
      EXPECT_EQ(count, 23) << vf << ":\n" << sync;
      EXPECT_EQ(async, sync) << vf;
      EXPECT_EQ(md5s(vf + ":async_depth=2"), sync) << vf;
    }
    const std::string three = "scale_clvf=w=128:h=96,denoise_clvf=s=4:p=3:r=5,colorspace_clvf=format=rgba";
    EXPECT_EQ(md5s("scale_clvf=w=128:h=96:async_depth=3,denoise_clvf=s=4:p=3:r=5:async_depth=3,"
                   "colorspace_clvf=format=rgba:async_depth=3"), md5s(three));
  }
  unsetenv("CLVF_NO_ZERO_COPY");
}

// On a device that shares host memory and has host buffers (PoCL), every filter's system-memory
// outputs come from host buffers (the next clvf filter reads them in place too); the frames are
// the bytes they are with copies through staging (CLVF_NO_ZERO_COPY=1), which says why it uses
// FFmpeg's frames instead.
TEST_F(FfmpegScale, OutputsAreWrittenInPlaceInHostBuffers) {
  const fs::path in = dir_ / "in.nut";
  ASSERT_EQ(run_ffmpeg(fmt::format("-f lavfi -i testsrc2=size=176x144:rate=25,noise=alls=12:allf=t+u -frames:v 9 "
                                   "-pix_fmt yuv420p -c:v rawvideo -y {}", in.string())).status, 0);
  const auto run = [&](const std::string& vf, const char* staged, std::string* log) {
    const fs::path out = dir_ / "frames.md5";
    EXPECT_EQ(setenv("CLVF_NO_ZERO_COPY", staged, 1), 0);
    const ProcessResult r = run_ffmpeg(fmt::format("-v verbose -i {} -vf \"{}\" -f framemd5 -y {}", in.string(), vf, out.string()));
    EXPECT_EQ(r.status, 0) << r.output;
    *log = r.output;
    const auto text = read_file(out);
    return std::string(text.begin(), text.end());
  };
  // Each chain with the number of clvf filters in it (the chain filter is one).
  const std::vector<std::pair<std::string, size_t>> chains = {
      {"scale_clvf=w=128:h=96", 1},
      {"denoise_clvf=s=4:p=3:r=5:t=1", 1},
      {"colorspace_clvf=format=rgba:async_depth=3", 1},
      {"clvf='chain=scale_clvf=w=128\\:h=96,denoise_clvf=s=4\\:p=3\\:r=5'", 1},
      {"scale_clvf=w=128:h=96,denoise_clvf=s=4:p=3:r=5,colorspace_clvf=format=nv12", 3}};
  for (const auto& [vf, filters] : chains) {
    SCOPED_TRACE(vf);
    std::string in_place_log, staged_log;
    const std::string in_place = run(vf, "0", &in_place_log), staged = run(vf, "1", &staged_log);
    EXPECT_EQ(in_place, staged);
    EXPECT_NE(in_place.find("0,          8,"), std::string::npos) << in_place;  // the ninth frame came out
    size_t said = 0;
    for (size_t at = 0; (at = in_place_log.find("outputs in host buffers, written in place", at)) != std::string::npos; ++at)
      ++said;
    EXPECT_EQ(said, filters) << in_place_log;
    EXPECT_NE(staged_log.find("outputs in FFmpeg's frames, mapped after the kernels: host buffers on"), std::string::npos)
        << staged_log;
  }
  unsetenv("CLVF_NO_ZERO_COPY");
}

}  // namespace
}  // namespace clvf::detail::test
