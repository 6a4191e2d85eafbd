// End to end through the built FFmpeg: colorspace_clvf on real command lines, compared with
// zscale (zimg) for the same matrices, ranges, chroma filter and no dither (PSNR and largest
// difference per plane, >= 48 dB where both compute the same thing), frame properties read and
// written, the OpenCL-frames path against the system-memory path, and bad options.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>

#include "ffmpeg_support.hpp"

namespace clvf::detail::test {
namespace {

namespace fs = std::filesystem;

constexpr int W = 640, H = 360;

// Planes of one raw frame in a planar layout zscale also speaks: Y U V (yuv420p/yuv444p, 8 or
// 16-bit samples as stored) or G B R (gbrp).
using Planes = std::vector<std::vector<uint16_t>>;

Planes planar(const std::vector<uint8_t>& raw, const std::string& fmt, int w = W, int h = H) {
  const size_t n = size_t(w) * h, c = size_t((w + 1) / 2) * ((h + 1) / 2);
  Planes p;
  const auto take8 = [&](size_t offset, size_t count, size_t step = 1) {
    std::vector<uint16_t> v(count);
    for (size_t i = 0; i < count; ++i) v[i] = raw.at(offset + i * step);
    return v;
  };
  const auto take16 = [&](size_t offset, size_t count, size_t step, int shift) {
    std::vector<uint16_t> v(count);
    for (size_t i = 0; i < count; ++i)
      v[i] = uint16_t((raw.at(offset + 2 * i * step) | raw.at(offset + 2 * i * step + 1) << 8) >> shift);
    return v;
  };
  if (fmt == "yuv420p") return {take8(0, n), take8(n, c), take8(n + c, c)};
  if (fmt == "yuv444p") return {take8(0, n), take8(n, n), take8(2 * n, n)};
  if (fmt == "nv12") return {take8(0, n), take8(n, c, 2), take8(n + 1, c, 2)};
  if (fmt == "gbrp") return {take8(0, n), take8(n, n), take8(2 * n, n)};
  if (fmt == "rgba") return {take8(1, n, 4), take8(2, n, 4), take8(0, n, 4)};  // as G B R
  if (fmt == "yuv420p10le") return {take16(0, n, 1, 0), take16(2 * n, c, 1, 0), take16(2 * n + 2 * c, c, 1, 0)};
  if (fmt == "p010le") return {take16(0, n, 1, 6), take16(2 * n, c, 2, 6), take16(2 * n + 2, c, 2, 6)};
  ADD_FAILURE() << "no layout for " << fmt;
  return p;
}

// RGBA bytes from gbrp planes (alpha 255): the RGB input both filters start from.
std::vector<uint8_t> rgba_from_gbrp(const std::vector<uint8_t>& gbrp) {
  const size_t n = size_t(W) * H;
  std::vector<uint8_t> out(4 * n);
  for (size_t i = 0; i < n; ++i)
    out[4 * i] = gbrp[2 * n + i], out[4 * i + 1] = gbrp[i], out[4 * i + 2] = gbrp[n + i], out[4 * i + 3] = 255;
  return out;
}

std::vector<uint8_t> p010_from_yuv420p10(const std::vector<uint8_t>& in) {
  const size_t n = size_t(W) * H, c = size_t(W / 2) * (H / 2), frame = 2 * (n + 2 * c);
  std::vector<uint8_t> out(in.size());
  for (size_t f = 0; f + frame <= in.size(); f += frame) {
    const auto sample = [&](size_t i) { return (in[f + 2 * i] | in[f + 2 * i + 1] << 8) << 6; };
    const auto put = [&](size_t i, int v) { out[f + 2 * i] = uint8_t(v), out[f + 2 * i + 1] = uint8_t(v >> 8); };
    for (size_t i = 0; i < n; ++i) put(i, sample(i));
    for (size_t i = 0; i < c; ++i) put(n + 2 * i, sample(n + i)), put(n + 2 * i + 1, sample(n + c + i));
  }
  return out;
}

std::vector<uint8_t> yuv420p_from_nv12(const std::vector<uint8_t>& in) {
  const size_t n = size_t(W) * H, c = size_t(W / 2) * (H / 2), frame = n + 2 * c;
  std::vector<uint8_t> out(in.size());
  for (size_t f = 0; f + frame <= in.size(); f += frame) {
    std::copy_n(in.begin() + f, n, out.begin() + f);
    for (size_t i = 0; i < c; ++i) out[f + n + i] = in[f + n + 2 * i], out[f + n + c + i] = in[f + n + 2 * i + 1];
  }
  return out;
}

struct PlaneMatch {
  double db;
  int max_err;
};

PlaneMatch compare(const std::vector<uint16_t>& a, const std::vector<uint16_t>& b, int peak) {
  double sse = 0;
  int max_err = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const int d = int(a[i]) - int(b[i]);
    sse += double(d) * d, max_err = std::max(max_err, std::abs(d));
  }
  const double mse = sse / a.size();
  return {mse == 0 ? 99.0 : 10 * std::log10(double(peak) * peak / mse), max_err};
}

class FfmpegColour : public FfmpegTest {
 protected:
  // A noisy test pattern in `fmt` (saturated colours, gradients, noise).
  fs::path make_input(const char* fmt, int frames = 2) {
    const fs::path p = dir_ / fmt::format("in-{}-{}.raw", fmt, frames);
    const ProcessResult r = run_ffmpeg(fmt::format(
        "-f lavfi -i testsrc2=size={}x{}:rate=25,noise=alls=10:allf=t+u -frames:v {} -pix_fmt {} -f rawvideo -y {}", W,
        H, frames, fmt, p.string()));
    EXPECT_EQ(r.status, 0) << r.output;
    return p;
  }
  std::vector<uint8_t> run(const fs::path& in, const char* in_fmt, const std::string& chain, const char* out_fmt,
                           const std::string& pre = "") {
    return read_file(convert(in, in_fmt, W, H, chain, out_fmt, pre));
  }
};

TEST_F(FfmpegColour, MatchesZscale) {
  struct Case {
    const char* in_fmt;   // ours
    const char* z_in_fmt;  // zscale's input: the same samples in its planar layout
    std::string ours, zscale;
    const char* out_fmt;
    const char* z_out_fmt;
    // What docs/filters/colorspace_clvf.md says of each (measured, less a margin). Chroma: planes 1
    // and 2 (B and R for RGB).
    double min_luma_db, min_chroma_db;
    int max_luma_error, max_chroma_error;
  };
  const std::string z = "zscale=dither=none:";
  const Case cases[] = {
      // 4:2:0 to 4:2:0 with point chroma: zimg's round trip through 4:4:4 is exact, so both agree.
      {"yuv420p", "yuv420p", "in_matrix=bt601:matrix=bt709:chroma_filter=point",
       z + "matrixin=470bg:matrix=709:filter=point", "yuv420p", "yuv420p", 98, 98, 1, 1},
      // With bilinear, zimg blurs the chroma by upsampling it to 4:4:4 and downsampling it again;
      // clvf converts chroma at its own sites (new chroma depends on the old chroma alone), so only
      // the luma is the same computation. The chroma bound records the gap on this sharp pattern.
      {"nv12", "yuv420p", "in_matrix=bt601:matrix=bt709", z + "matrixin=470bg:matrix=709:filter=bilinear", "nv12",
       "yuv420p", 101, 32, 1, 255},
      // Chroma's range change rounds on either side of a half at a few samples.
      {"yuv420p", "yuv420p", "in_range=tv:range=pc", z + "rangein=limited:range=full", "yuv420p", "yuv420p", 98, 65,
       1, 1},
      // Luma of the new matrix takes the chroma interpolated to the luma grid: where bicubic rings
      // on the pattern's edges zimg clips its intermediate, clvf does not (up to 14 levels there).
      {"yuv420p", "yuv420p", "matrix=bt2020nc:in_matrix=bt709:format=yuv444p:chroma_filter=bicubic",
       z + "matrixin=709:matrix=2020_ncl:filter=bicubic:param_a=0.3333333333:param_b=0.3333333333", "yuv444p",
       "yuv444p", 48.5, 96.5, 14, 1},
      {"yuv420p", "yuv420p", "in_matrix=bt709:format=rgba:chroma_filter=spline36",
       z + "matrixin=709:filter=spline36", "rgba", "gbrp", 98, 98, 1, 1},
      // RGB to 4:2:0: the chroma is downsampled (bilinear, widened x2); the edges differ by a few levels.
      {"rgba", "gbrp", "matrix=bt709:format=yuv420p", z + "matrix=709:range=limited:filter=bilinear", "yuv420p",
       "yuv420p", 98, 62, 1, 10},
      {"p010le", "yuv420p10le", "in_matrix=bt2020nc:matrix=bt709:format=nv12:dither=none:chroma_filter=point",
       z + "matrixin=2020_ncl:matrix=709:filter=point", "nv12", "yuv420p", 98, 98, 1, 1},
  };
  // RGBA and P010 inputs are rearranged here from zscale's, so both hold the same samples.
  std::map<std::string, fs::path> inputs;
  for (const char* fmt : {"yuv420p", "nv12", "gbrp", "yuv420p10le"}) inputs[fmt] = make_input(fmt);
  inputs["rgba"] = dir_ / "in-rgba.raw";
  write_file(inputs["rgba"], rgba_from_gbrp(read_file(inputs["gbrp"])));
  inputs["p010le"] = dir_ / "in-p010.raw";
  write_file(inputs["p010le"], p010_from_yuv420p10(read_file(inputs["yuv420p10le"])));
  // nv12 as zscale's yuv420p: the same samples.
  write_file(dir_ / "in-nv12-as-yuv420p.raw", yuv420p_from_nv12(read_file(inputs["nv12"])));
  const auto input = [&](const Case& k, bool zscale) {
    if (zscale && std::string(k.in_fmt) == "nv12") return dir_ / "in-nv12-as-yuv420p.raw";
    return inputs.at(zscale ? k.z_in_fmt : k.in_fmt);
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.ours);
    // The raw inputs of ours and zscale hold the same samples (p010 is yuv420p10 shifted).
    const auto ours = planar(run(input(k, false), k.in_fmt, "colorspace_clvf=" + k.ours, k.out_fmt), k.out_fmt);
    const auto theirs = planar(run(input(k, true), k.z_in_fmt, k.zscale, k.z_out_fmt), k.z_out_fmt);
    ASSERT_EQ(ours.size(), theirs.size());
    for (size_t i = 0; i < ours.size(); ++i) {
      ASSERT_EQ(ours[i].size(), theirs[i].size()) << "plane " << i;
      const PlaneMatch m = compare(ours[i], theirs[i], 255);
      std::printf("colorspace_clvf=%-70s vs zscale plane %zu: PSNR %6.2f dB, max error %d\n", k.ours.c_str(), i, m.db,
                  m.max_err);
      RecordProperty(fmt::format("{}_plane{}", k.ours, i), fmt::format("{:.2f} dB, max {}", m.db, m.max_err));
      EXPECT_GE(m.db, i == 0 ? k.min_luma_db : k.min_chroma_db) << "plane " << i;
      EXPECT_LE(m.max_err, i == 0 ? k.max_luma_error : k.max_chroma_error) << "plane " << i;
    }
  }
}

// scale_clvf converts in the same pass, on the unrounded scaled samples. Where zimg computes the
// same thing (each plane resized, then a per-plane range change; 4:4:4 resized, then a matrix)
// the planes must agree.
TEST_F(FfmpegColour, ScaleWithConversionMatchesZscale) {
  const fs::path p010 = dir_ / "in-p010.raw", yuv10 = make_input("yuv420p10le"), yuv444 = make_input("yuv444p");
  write_file(p010, p010_from_yuv420p10(read_file(yuv10)));
  const int w = 426, h = 240;
  struct Case {
    fs::path ours_in, z_in;
    const char *in_fmt, *z_in_fmt;
    std::string ours, zscale;
    const char *out_fmt, *z_out_fmt;
    double min_db;  // every plane; what docs/filters/scale_clvf.md says, less a margin
    int max_error;
  } cases[] = {
      {p010, yuv10, "p010le", "yuv420p10le",
       fmt::format("scale_clvf=w={}:h={}:algorithm=spline36:format=nv12:in_range=tv:range=pc:dither=none", w, h),
       fmt::format("zscale=w={}:h={}:filter=spline36:rangein=limited:range=full:dither=none", w, h), "nv12", "yuv420p",
       58.5, 3},
      {yuv444, yuv444, "yuv444p", "yuv444p",
       fmt::format("scale_clvf=w={}:h={}:algorithm=bilinear:format=rgba:in_matrix=bt601:dither=none", w, h),
       fmt::format("zscale=w={}:h={}:filter=bilinear:matrixin=470bg:dither=none", w, h), "rgba", "gbrp", 93, 1},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.ours);
    const auto ours = planar(read_file(convert(k.ours_in, k.in_fmt, W, H, k.ours, k.out_fmt)), k.out_fmt, w, h);
    const auto theirs = planar(read_file(convert(k.z_in, k.z_in_fmt, W, H, k.zscale, k.z_out_fmt)), k.z_out_fmt, w, h);
    ASSERT_EQ(ours.size(), theirs.size());
    for (size_t i = 0; i < ours.size(); ++i) {
      const PlaneMatch m = compare(ours[i], theirs[i], 255);
      std::printf("%-90s vs zscale plane %zu: PSNR %6.2f dB, max error %d\n", k.ours.c_str(), i, m.db, m.max_err);
      RecordProperty(fmt::format("{}_plane{}", k.ours, i), fmt::format("{:.2f} dB, max {}", m.db, m.max_err));
      EXPECT_GE(m.db, k.min_db) << "plane " << i;
      EXPECT_LE(m.max_err, k.max_error) << "plane " << i;
    }
  }
}

TEST_F(FfmpegColour, ReadsTheFramesPropertiesAndWritesTheOutputs) {
  const fs::path in = make_input("yuv420p");
  // Tags on the input frame stand for the in_* options.
  const auto tagged = run(in, "yuv420p", "setparams=colorspace=bt470bg:range=pc,colorspace_clvf=matrix=bt709:range=tv",
                          "yuv420p");
  const auto explicit_ = run(in, "yuv420p", "colorspace_clvf=in_matrix=bt601:in_range=pc:matrix=bt709:range=tv",
                             "yuv420p");
  EXPECT_TRUE(tagged == explicit_);
  // A second instance reads what the first wrote: converting back gives the input again, up to rounding.
  const auto round_trip = run(in, "yuv420p",
                              "colorspace_clvf=in_matrix=bt601:in_range=tv:matrix=bt709:format=yuv444p:"
                              "chroma_filter=point,"
                              "colorspace_clvf=matrix=bt601:range=tv:format=yuv420p:chroma_filter=point",
                              "yuv420p");
  const auto original = read_file(in);
  const auto a = planar(round_trip, "yuv420p"), b = planar(original, "yuv420p");
  for (size_t i = 0; i < 3; ++i) EXPECT_LE(compare(a[i], b[i], 255).max_err, 2) << "plane " << i;

  // The output stream carries the new tags.
  const fs::path mkv = dir_ / "tagged.mkv";
  ProcessResult r = run_ffmpeg(fmt::format(
      "-f rawvideo -pix_fmt yuv420p -s {}x{} -i {} -vf colorspace_clvf=in_matrix=bt601:matrix=bt709:range=pc "
      "-c:v ffv1 -y {}",
      W, H, in.string(), mkv.string()));
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string probe = fmt::format("{}/ffprobe -v error -show_entries stream=color_space,color_range -of "
                                        "default=nw=1 {} 2>&1",
                                        fs::path(CLVF_FFMPEG).parent_path().string(), mkv.string());
  FILE* pipe = popen(probe.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string tags;
  char buf[256];
  while (fgets(buf, sizeof buf, pipe)) tags += buf;
  pclose(pipe);
  EXPECT_NE(tags.find("color_space=bt709"), std::string::npos) << tags;
  EXPECT_NE(tags.find("color_range=pc"), std::string::npos) << tags;
}

TEST_F(FfmpegColour, OpenCLFramesPathEqualsSystemMemoryPath) {
  const fs::path in = make_input("yuv420p");
  const std::string dev = "-init_hw_device opencl=ocl:0.0 -filter_hw_device ocl";
  for (const char* out : {"rgba", "yuv444p"}) {
    SCOPED_TRACE(out);
    const std::string conv = fmt::format("colorspace_clvf=in_matrix=bt601:matrix=bt709:format={}", out);
    const auto sw = run(in, "yuv420p", conv, out);
    const auto hw = run(in, "yuv420p", fmt::format("hwupload,{},hwdownload,format={}", conv, out), out, dev);
    EXPECT_EQ(sw.size(), size_t(W) * H * (std::string(out) == "rgba" ? 4 : 3) * 2);
    EXPECT_TRUE(sw == hw) << "hwupload path differs from the system-memory path";
  }
}

// Frames stay in flight (up to CLVF_MAX_IN_FLIGHT) between the filters' submit and complete; with
// staged copies (discrete GPUs: pinned memory, three queues) every frame still comes out, in
// order, the same as with zero copy.
TEST_F(FfmpegColour, FramesInFlightComeOutInOrderWithStagedCopies) {
  const fs::path in = make_input("yuv420p", 7);
  const std::string chain = "scale_clvf=w=320:h=180:format=nv12:matrix=bt2020nc,colorspace_clvf=format=rgba";
  const auto zero_copy = run(in, "yuv420p", chain, "rgba");
  ASSERT_EQ(setenv("CLVF_NO_ZERO_COPY", "1", 1), 0);
  const auto staged = run(in, "yuv420p", chain, "rgba");
  unsetenv("CLVF_NO_ZERO_COPY");
  EXPECT_EQ(zero_copy.size(), size_t(320) * 180 * 4 * 7);
  EXPECT_TRUE(staged == zero_copy);
  // Frame by frame, the same as converting each input frame alone (order kept).
  const size_t in_frame = size_t(W) * H * 3 / 2, out_frame = size_t(320) * 180 * 4;
  const auto all = read_file(in);
  for (int n : {0, 6}) {
    const fs::path one = dir_ / fmt::format("one-{}.raw", n);
    write_file(one, std::vector<uint8_t>(all.begin() + n * in_frame, all.begin() + (n + 1) * in_frame));
    const auto alone = run(one, "yuv420p", chain, "rgba");
    EXPECT_TRUE(std::equal(alone.begin(), alone.end(), zero_copy.begin() + n * out_frame)) << "frame " << n;
  }
}

// profile=1: kernel times from OpenCL events, logged per kernel when the filters close (yuv420p:
// U and V in one launch on CPUs); only by the filters that ask (the request must not leak to
// filters opened after).
TEST_F(FfmpegColour, ProfileOptionLogsKernelTimes) {
  const ProcessResult all = run_ffmpeg(
      "-loglevel info -f lavfi -i testsrc2=size=320x240 -frames:v 3 -vf scale_clvf=w=160:h=120:profile=1,"
      "colorspace_clvf=format=rgba:profile=1,format=yuv420p,denoise_clvf=profile=1 -f null -");
  ASSERT_EQ(all.status, 0) << all.output;
  for (const char* line : {"kernel times", "scale_phase plane 0", "scale_phase planes 1-2", "colour_luma", "nlmeans plane 0"})
    EXPECT_NE(all.output.find(line), std::string::npos) << line << " missing from:\n" << all.output;
  const ProcessResult first = run_ffmpeg(
      "-loglevel info -f lavfi -i testsrc2=size=320x240 -frames:v 3 -vf scale_clvf=w=160:h=120:profile=1,"
      "colorspace_clvf=format=rgba,format=yuv420p,denoise_clvf -f null -");
  ASSERT_EQ(first.status, 0) << first.output;
  EXPECT_NE(first.output.find("scale_phase plane 0"), std::string::npos) << first.output;
  for (const char* line : {"colour_luma", "nlmeans plane 0"})
    EXPECT_EQ(first.output.find(line), std::string::npos) << line << " logged by a filter without profile=1:\n"
                                                          << first.output;
}

TEST_F(FfmpegColour, BadOptionsFailWithAClearMessage) {
  const struct {
    std::string vf, expect;
  } cases[] = {
      {"colorspace_clvf=matrix=3", "destination matrix 3 is not known; allowed: bt709"},
      {"colorspace_clvf=matrix=bt2021", "matrix"},
      {"colorspace_clvf=format=gray", "option 'format': gray is not supported; allowed: nv12, yuv420p"},
      {"colorspace_clvf=chroma_filter=cubic", "algorithm 'cubic' is not known; allowed: point"},
      {"colorspace_clvf=in_range=7", "in_range"},
      {"colorspace_clvf=preset=nope", "preset 'nope' is not known for colorspace_clvf; known: sd-to-hd"},
      {"colorspace_clvf=device=no-such-device", "devices found"},
  };
  for (const auto& c : cases) expect_failure(c.vf, c.expect);
}

TEST_F(FfmpegColour, PresetsGiveTheirOptionsAndExplicitOptionsWin) {
  const fs::path in = make_input("yuv420p");
  EXPECT_TRUE(run(in, "yuv420p", "colorspace_clvf=preset=sd-to-hd", "yuv420p") ==
              run(in, "yuv420p", "colorspace_clvf=in_matrix=bt601:matrix=bt709", "yuv420p"));
  EXPECT_TRUE(run(in, "yuv420p", "colorspace_clvf=preset=to-rgba:chroma_filter=point", "rgba") ==
              run(in, "yuv420p", "colorspace_clvf=format=rgba:chroma_filter=point", "rgba"));
}

}  // namespace
}  // namespace clvf::detail::test
