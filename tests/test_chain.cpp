// clvf_chain (the C API's filter chains) against the built ffmpeg running the same string with
// -vf: the same output size, format and bytes, frame for frame. This checks the chain's reading
// of options, presets, w/h expressions, aspect adjustments and colour tags against FFmpeg's own
// (AVOptions, libavutil/eval.c, scale_eval.c); the operations' pixels are checked against float64
// references elsewhere.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <map>

#include "clvf/clvf.h"
#include "ffmpeg_support.hpp"
#include "api/chain/expression.hpp"
#include "runtime/error.hpp"
#include "runtime/ops/pixel_format.hpp"

namespace clvf::detail::test {
namespace {

namespace fs = std::filesystem;

const char* ffmpeg_name(clvf_pixel_format f) {
  switch (f) {
    case CLVF_PIX_NV12: return "nv12";
    case CLVF_PIX_YUV420P: return "yuv420p";
    case CLVF_PIX_P010: return "p010le";
    case CLVF_PIX_YUV444P: return "yuv444p";
    case CLVF_PIX_RGBA: return "rgba";
    case CLVF_PIX_BGRA: return "bgra";
    default: return "?";
  }
}

struct Layout {
  size_t frame_bytes = 0;
  std::vector<size_t> offsets, pitches;
};
Layout layout_of(clvf_pixel_format format, int w, int h) {
  const PixelFormat& f = *find_pixel_format(format);
  Layout l;
  for (const PlaneLayout& p : f.planes) {
    const size_t pw = (w + p.sub_x - 1) / p.sub_x, ph = (h + p.sub_y - 1) / p.sub_y;
    l.offsets.push_back(l.frame_bytes);
    l.pitches.push_back(pw * p.channels * f.bytes);
    l.frame_bytes += l.pitches.back() * ph;
  }
  return l;
}
clvf_frame host_frame(uint8_t* base, const Layout& l) {
  clvf_frame f = {};
  f.storage = CLVF_STORAGE_HOST;
  for (size_t i = 0; i < l.offsets.size(); ++i) {
    f.planes[i].data = base + l.offsets[i];
    f.planes[i].pitch = l.pitches[i];
  }
  return f;
}

clvf_stream stream(int w, int h, clvf_pixel_format format) {
  clvf_stream s = {};
  s.version = CLVF_API_VERSION;
  s.width = w;
  s.height = h;
  s.format = format;
  return s;
}

// What ffmpeg -vf runs for `chain`: a chain preset's name stands for its filters.
std::string as_vf(const std::string& chain) {
  const char* text = nullptr;
  if (chain.find('=') == std::string::npos && clvf_preset_options("chains", chain.c_str(), &text) == CLVF_OK)
    return text;
  return chain;
}

class Chains : public FfmpegTest {
 protected:
  void SetUp() override {
    FfmpegTest::SetUp();
    const char* spec = std::getenv("CLVF_TEST_DEVICE");
    ASSERT_EQ(clvf_device_open(spec && *spec ? spec : "pocl", &device_), CLVF_OK) << clvf_last_error();
  }
  void TearDown() override {
    clvf_device_release(device_);
    FfmpegTest::TearDown();
  }

  fs::path make_input(clvf_pixel_format format, int w, int h, int frames) {
    const fs::path p = dir_ / fmt::format("in-{}.raw", count_++);
    const ProcessResult r = run_ffmpeg(fmt::format(
        "-f lavfi -i testsrc2=size={}x{}:rate=25,crop={}:{}:0:0:exact=1,noise=alls=12:allf=t+u -frames:v {} "
        "-pix_fmt {} -f rawvideo -y {}",
        w + w % 2, h + h % 2, w, h, frames, ffmpeg_name(format), p.string()));
    EXPECT_EQ(r.status, 0) << r.output;
    return p;
  }

  // Runs `chain` over every frame of `in` through the C API; the output stream and its frames.
  std::vector<uint8_t> run_chain(const std::string& chain, const fs::path& in, const clvf_stream& input,
                                 clvf_stream* output) {
    clvf_chain* c = nullptr;
    EXPECT_EQ(clvf_chain_create(device_, chain.c_str(), &input, CLVF_STORAGE_HOST, CLVF_STORAGE_HOST, &c), CLVF_OK)
        << chain << ": " << clvf_last_error();
    if (!c) return {};
    EXPECT_EQ(clvf_chain_output(c, output), CLVF_OK);
    std::vector<uint8_t> src = read_file(in);
    const Layout li = layout_of(input.format, input.width, input.height);
    const Layout lo = layout_of(output->format, output->width, output->height);
    std::vector<uint8_t> out, frame(lo.frame_bytes);
    // Poisoned: a pixel the chain does not write shows.
    std::fill(frame.begin(), frame.end(), uint8_t{0xA5});
    const clvf_frame dst = host_frame(frame.data(), lo);
    auto take = [&](const clvf_frame* s) {
      int got = 0;
      EXPECT_EQ(clvf_chain_process(c, s, &dst, &got), CLVF_OK) << clvf_last_error();
      if (got) out.insert(out.end(), frame.begin(), frame.end());
      std::fill(frame.begin(), frame.end(), uint8_t{0xA5});
      return got != 0;
    };
    for (size_t at = 0; at + li.frame_bytes <= src.size(); at += li.frame_bytes) {
      const clvf_frame s = host_frame(src.data() + at, li);
      take(&s);
    }
    while (take(nullptr)) {
    }
    clvf_chain_release(c);
    return out;
  }

  // The chain through clvf_chain and through ffmpeg -vf: identical.
  void expect_same_as_ffmpeg(const std::string& chain, clvf_pixel_format format, int w, int h, int frames) {
    SCOPED_TRACE(chain);
    const fs::path in = make_input(format, w, h, frames);
    clvf_stream input = stream(w, h, format);
    clvf_stream output = {};
    const std::vector<uint8_t> ours = run_chain(chain, in, input, &output);
    const fs::path theirs = convert(in, ffmpeg_name(format), w, h, as_vf(chain), ffmpeg_name(output.format));
    const std::vector<uint8_t> expected = read_file(theirs);
    const size_t frame_bytes = layout_of(output.format, output.width, output.height).frame_bytes;
    ASSERT_EQ(ours.size(), expected.size()) << "output " << output.width << "x" << output.height << " "
                                            << ffmpeg_name(output.format) << ": "
                                            << expected.size() / std::max<size_t>(frame_bytes, 1)
                                            << " frames from ffmpeg";
    EXPECT_EQ(ours.size(), frame_bytes * frames) << "every frame comes out";
    EXPECT_TRUE(ours == expected) << "bytes differ";
  }

  clvf_status create(const std::string& chain, clvf_stream input = stream(64, 48, CLVF_PIX_YUV420P)) {
    clvf_chain* c = nullptr;
    const clvf_status st = clvf_chain_create(device_, chain.c_str(), &input, CLVF_STORAGE_HOST, CLVF_STORAGE_HOST, &c);
    clvf_chain_release(c);
    return st;
  }
  void expect_error(const std::string& chain, const std::string& message,
                    clvf_stream input = stream(64, 48, CLVF_PIX_YUV420P)) {
    EXPECT_EQ(create(chain, input), CLVF_ERROR_INVALID_ARGUMENT) << chain;
    EXPECT_NE(std::string(clvf_last_error()).find(message), std::string::npos)
        << chain << ": " << clvf_last_error();
  }

  clvf_device* device_ = nullptr;
};

TEST_F(Chains, PresetsAsFfmpegRunsThem) {
  expect_same_as_ffmpeg("web-720p", CLVF_PIX_YUV420P, 352, 288, 2);
  expect_same_as_ffmpeg("denoise-web-720p", CLVF_PIX_NV12, 320, 240, 2);
  expect_same_as_ffmpeg("uhd-bt2020-to-1080p-bt709", CLVF_PIX_P010, 640, 360, 2);
  expect_same_as_ffmpeg("scale_clvf=preset=half", CLVF_PIX_YUV420P, 333, 187, 2);
}

TEST_F(Chains, OptionsExpressionsAndAspectAsFfmpeg) {
  expect_same_as_ffmpeg("scale_clvf=w=-2:h=120:algorithm=lanczos:param0=4", CLVF_PIX_NV12, 333, 187, 2);
  expect_same_as_ffmpeg("scale_clvf=w='if(gt(iw,ih),200,-2)':h=-4:algorithm=spline16", CLVF_PIX_YUV420P, 320, 240, 2);
  expect_same_as_ffmpeg("scale_clvf=w=300:h=300:force_original_aspect_ratio=increase:force_divisible_by=4",
                        CLVF_PIX_YUV444P, 160, 90, 2);
  expect_same_as_ffmpeg("scale_clvf=width=trunc(ih*4/3/2)*2:height=ih-2^3", CLVF_PIX_YUV420P, 176, 144, 2);
  expect_same_as_ffmpeg("scale_clvf=preset=web-720p:algorithm=bicubic:param0=0:param1=0.5", CLVF_PIX_NV12, 160, 120,
                        1);
}

TEST_F(Chains, ConversionsAndTagsCarryAsFfmpeg) {
  expect_same_as_ffmpeg("colorspace_clvf=format=rgba,colorspace_clvf=format=yuv444p:matrix=bt601:range=pc",
                        CLVF_PIX_NV12, 96, 64, 2);
  expect_same_as_ffmpeg("scale_clvf=w=120:h=90:format=p010le:matrix=bt2020nc,colorspace_clvf=format=nv12:dither=none",
                        CLVF_PIX_YUV420P, 160, 120, 2);
  expect_same_as_ffmpeg("colorspace_clvf=preset=to-rgba,colorspace_clvf=format=bgra", CLVF_PIX_YUV420P, 64, 48, 1);
}

TEST_F(Chains, TemporalDenoiseDelaysAndFlushes) {
  expect_same_as_ffmpeg("denoise_clvf=s=5:t=1,scale_clvf=w=80:h=60", CLVF_PIX_YUV420P, 160, 120, 5);
  expect_same_as_ffmpeg("denoise_clvf=t=1:p=3:r=5,denoise_clvf=preset=light:t=2", CLVF_PIX_NV12, 64, 48, 4);
}

// The clvf filter runs a whole chain in one ffmpeg filter: the frames of the chain written out.
TEST_F(Chains, OneFfmpegFilterRunsAChain) {
  const fs::path in = make_input(CLVF_PIX_YUV420P, 320, 240, 4);
  const char* names = clvf_preset_names("chains");
  std::vector<std::pair<std::string, std::string>> cases;  // clvf filter, the same chain written out
  for (std::string list = names; !list.empty();) {
    const auto comma = list.find(", ");
    const std::string name = list.substr(0, comma);
    list = comma == std::string::npos ? "" : list.substr(comma + 2);
    cases.emplace_back("clvf=" + name, as_vf(name));
  }
  ASSERT_GE(cases.size(), 6u);
  cases.emplace_back("clvf='chain=denoise_clvf=t=1\\:s=4,scale_clvf=w=160\\:h=-2'",
                     "denoise_clvf=t=1:s=4,scale_clvf=w=160:h=-2");
  for (const auto& [one, written] : cases) {
    SCOPED_TRACE(one);
    clvf_stream out = {};
    const clvf_stream input = stream(320, 240, CLVF_PIX_YUV420P);
    ASSERT_EQ(clvf_chain_plan(as_vf(written).c_str(), &input, &out), CLVF_OK) << clvf_last_error();
    const std::vector<uint8_t> a = read_file(convert(in, "yuv420p", 320, 240, one, ffmpeg_name(out.format)));
    const std::vector<uint8_t> b = read_file(convert(in, "yuv420p", 320, 240, written, ffmpeg_name(out.format)));
    EXPECT_EQ(a.size(), layout_of(out.format, out.width, out.height).frame_bytes * 4) << "every frame comes out";
    EXPECT_TRUE(a == b) << "the clvf filter's frames differ from the chain's";
  }
  // OpenCL frames (hwupload): the same frames as the filters written out on OpenCL frames.
  std::vector<std::string> sums;
  for (const char* vf : {"clvf=denoise-web-720p", "denoise_clvf=preset=medium,scale_clvf=preset=web-720p"}) {
    const fs::path out = dir_ / fmt::format("hw-{}.md5", sums.size());
    const ProcessResult r = run_ffmpeg(fmt::format(
        "-init_hw_device opencl=ocl -filter_hw_device ocl -f rawvideo -pix_fmt yuv420p -s 320x240 -i {} "
        "-vf \"format=yuv420p,hwupload,{},hwdownload,format=yuv420p\" -f framemd5 -y {}",
        in.string(), vf, out.string()));
    ASSERT_EQ(r.status, 0) << vf << "\n" << r.output;
    std::string text;
    for (uint8_t c : read_file(out)) text += static_cast<char>(c);
    sums.push_back(text.substr(text.find("\n0,")));  // the frames, not the header
  }
  EXPECT_EQ(sums[0], sums[1]) << "OpenCL frames through the clvf filter differ from the filters written out";
  expect_failure("clvf=no-such-chain", "preset 'no-such-chain' is not known for chains; known: web-720p");
  expect_failure("clvf", "option 'chain' is empty");
}

TEST_F(Chains, PlanWithoutADevice) {
  clvf_stream in = stream(1920, 1080, CLVF_PIX_NV12), out = {};
  ASSERT_EQ(clvf_chain_plan("web-720p", &in, &out), CLVF_OK) << clvf_last_error();
  EXPECT_EQ(out.width, 1280);
  EXPECT_EQ(out.height, 720);
  EXPECT_EQ(clvf_chain_plan("scale_clvf=w=63", &in, &out), CLVF_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(clvf_last_error()).find("is odd"), std::string::npos) << clvf_last_error();
}

TEST_F(Chains, ASecondStreamAfterTheEnd) {
  const fs::path in = make_input(CLVF_PIX_YUV420P, 64, 48, 3);
  clvf_stream input = stream(64, 48, CLVF_PIX_YUV420P), output = {};
  clvf_chain* c = nullptr;
  ASSERT_EQ(clvf_chain_create(device_, "denoise_clvf=t=1", &input, CLVF_STORAGE_HOST, CLVF_STORAGE_HOST, &c), CLVF_OK);
  ASSERT_EQ(clvf_chain_output(c, &output), CLVF_OK);
  clvf_chain_release(c);
  const std::vector<uint8_t> once = run_chain("denoise_clvf=t=1", in, input, &output);
  // The same chain object over the file twice gives the same frames twice.
  ASSERT_EQ(clvf_chain_create(device_, "denoise_clvf=t=1", &input, CLVF_STORAGE_HOST, CLVF_STORAGE_HOST, &c), CLVF_OK);
  std::vector<uint8_t> src = read_file(in), frame(once.size() / 3), twice;
  const Layout l = layout_of(CLVF_PIX_YUV420P, 64, 48);
  const clvf_frame dst = host_frame(frame.data(), l);
  for (int pass = 0; pass < 2; ++pass) {
    int got = 0;
    for (size_t at = 0; at < src.size(); at += l.frame_bytes) {
      const clvf_frame s = host_frame(src.data() + at, l);
      ASSERT_EQ(clvf_chain_process(c, &s, &dst, &got), CLVF_OK) << clvf_last_error();
      if (got) twice.insert(twice.end(), frame.begin(), frame.end());
    }
    do {
      ASSERT_EQ(clvf_chain_process(c, nullptr, &dst, &got), CLVF_OK) << clvf_last_error();
      if (got) twice.insert(twice.end(), frame.begin(), frame.end());
    } while (got);
  }
  clvf_chain_release(c);
  ASSERT_EQ(twice.size(), 2 * once.size());
  EXPECT_TRUE(std::equal(once.begin(), once.end(), twice.begin()));
  EXPECT_TRUE(std::equal(once.begin(), once.end(), twice.begin() + once.size()));
}

TEST_F(Chains, OutputStreamDescribesTheFrames) {
  clvf_stream input = stream(1920, 1080, CLVF_PIX_P010);
  input.matrix = CLVF_MATRIX_BT2020_NCL;
  input.range = CLVF_RANGE_TV;
  input.sar_num = input.sar_den = 1;
  clvf_chain* c = nullptr;
  ASSERT_EQ(clvf_chain_create(device_, "scale_clvf=w=1280:h=-2:format=nv12:matrix=bt709", &input, CLVF_STORAGE_HOST,
                              CLVF_STORAGE_HOST, &c),
            CLVF_OK)
      << clvf_last_error();
  clvf_stream out = {};
  ASSERT_EQ(clvf_chain_output(c, &out), CLVF_OK);
  EXPECT_EQ(out.width, 1280);
  EXPECT_EQ(out.height, 720);
  EXPECT_EQ(out.format, CLVF_PIX_NV12);
  EXPECT_EQ(out.matrix, CLVF_MATRIX_BT709);
  EXPECT_EQ(out.range, CLVF_RANGE_TV);
  EXPECT_EQ(out.sar_num, 1);
  EXPECT_EQ(out.sar_den, 1);
  clvf_chain_release(c);
}

TEST_F(Chains, BadChainsNameWhatIsWrong) {
  expect_error("no-such-chain", "preset 'no-such-chain' is not known for chains; known: web-720p");
  expect_error("scale_clvf=w=64:h=48,boxblur=2", "filter 'boxblur' is not a clvf filter");
  expect_error("scale_clvf=wdth=64", "scale_clvf: unknown option 'wdth'; the options are preset, w, width");
  expect_error("scale_clvf=64:48", "option '64' is not KEY=VALUE");
  expect_error("scale_clvf=w=63:h=48", "is odd: 4:2:0 output needs an even width and height");
  expect_error("scale_clvf=w=iw/:h=48", "chain stage 1: scale_clvf: option 'w': expression 'iw/'");
  expect_error("scale_clvf=w=foo*2", "unknown name 'foo'; the variables are");
  expect_error("scale_clvf=w=sqrt(iw)", "unknown function 'sqrt'");
  expect_error("denoise_clvf=s=unset", "unknown name 'unset'; this option takes a number");
  expect_error("scale_clvf=algorithm=unset", "algorithm 'unset' is not known; allowed: point");
  expect_error("denoise_clvf=s=40", "denoise_clvf: option 's' is 40; allowed: 1 to 30");
  expect_error("denoise_clvf=p=4", "patch");
  expect_error("denoise_clvf=preset=loud", "preset 'loud' is not known for denoise_clvf; known: light, medium, strong");
  expect_error("scale_clvf=device=gpu", "option 'device' is for ffmpeg");
  expect_error("scale_clvf=w=64:h=48,,scale_clvf", "has an empty filter");
  expect_error("scale_clvf=w='iw:h=48", "unclosed quote");
  expect_error("colorspace_clvf=format=rgba,denoise_clvf",
               "chain stage 2: denoise_clvf: input format rgba is not taken; it takes nv12, yuv420p");
  expect_error("scale_clvf", "input size 0x48 is not allowed", stream(0, 48, CLVF_PIX_YUV420P));
  EXPECT_EQ(clvf_chain_create(device_, nullptr, nullptr, CLVF_STORAGE_HOST, CLVF_STORAGE_HOST, nullptr),
            CLVF_ERROR_INVALID_ARGUMENT);
}

TEST(ChainExpression, FfmpegSemantics) {
  const std::map<std::string, double> v = {{"iw", 1919}, {"ih", 1081}};
  EXPECT_EQ(chain::evaluate("trunc(iw/4)*2", v), 958);
  EXPECT_EQ(chain::evaluate("-2^2", v), -4);   // the sign applies to the power
  EXPECT_EQ(chain::evaluate("2^3^2", v), 64);  // '^' groups from the left
  EXPECT_EQ(chain::evaluate("-ih/-2", v), 540.5);
  EXPECT_EQ(chain::evaluate("if(gt(iw,ih),1280,-2)", v), 1280);
  EXPECT_EQ(chain::evaluate("ifnot(lt(iw,ih),7)", v), 7);
  EXPECT_EQ(chain::evaluate("min(iw,1280)+max(1,2)*mod(-7,3)", v), 1280 + 2 * 2);
  EXPECT_EQ(chain::evaluate(" round( 2.5 ) + floor(-0.5) + ceil(0.2) + abs(-3) + eq(1,1) + gte(1,2) + lte(1,1) ", v),
            3 - 1 + 1 + 3 + 1 + 0 + 1);
  EXPECT_EQ(chain::evaluate("1e3/8", v), 125);
  EXPECT_EQ(chain::evaluate("2*--3", v), 6);  // a sign, then a signed number
  for (const char* bad : {"", "iw +", "(iw", "iw)", "min(1)", "if(1)", "3..4", "iw ih", "#"})
    EXPECT_THROW(chain::evaluate(bad, v), Error) << bad;
  EXPECT_EQ(chain::evaluate(std::string(99, '(') + "1" + std::string(99, ')'), v), 1);
  EXPECT_THROW(chain::evaluate(std::string(5000, '(') + "1" + std::string(5000, ')'), v), Error);
  EXPECT_THROW(chain::evaluate(std::string(5000, '-') + "1", v), Error);
}

}  // namespace
}  // namespace clvf::detail::test
