// Reads of memory nothing wrote, found by their effect: every operation runs twice on the same
// source, once with one byte and once with another in all memory its kernels may reach but no
// one wrote (the operation's own buffers: temporal rings, a chain's intermediate frames, staging
// copies, through CLVF_POISON_SCRATCH; the padding around every source and destination plane;
// the destination's samples). Outputs must be identical byte for byte, and the padding intact.
// 0xFF makes every float NaN, so even a read weighted by zero changes the output. This is the
// uninitialised-value check that runs on every device (Oclgrind's plugin cannot run these
// kernels: tests/CMakeLists.txt).
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <cstdlib>
#include <functional>
#include <memory>
#include <random>

#include "checker_support.hpp"
#include "component_check.hpp"
#include "clvf/clvf.h"
#include "test_frames.hpp"

namespace clvf::detail::test {
namespace {

using Planes = std::vector<RefPlane>;

class UnwrittenReads : public StorageChecker {
 protected:
  // One run of the operation: its outputs, with `poison` in every byte no one wrote.
  using Run = std::function<std::vector<Planes>(uint8_t poison)>;

  void expect_independent_of_unwritten_memory(const Run& run) {
    std::vector<Planes> outputs[2];
    const uint8_t poisons[2] = {0x00, 0xFF};
    for (int i = 0; i < 2; ++i) {
      // A device reads its settings when it opens: the run's operations go on a device wrapped
      // around the same context with the poison set.
      setenv("CLVF_POISON_SCRATCH", std::to_string(poisons[i]).c_str(), 1);
      rewrap();
      unsetenv("CLVF_POISON_SCRATCH");
      outputs[i] = run(poisons[i]);
      rewrap();
      if (HasFatalFailure()) return;
    }
    ASSERT_EQ(outputs[0].size(), outputs[1].size());
    ASSERT_FALSE(outputs[0].empty());
    for (size_t f = 0; f < outputs[0].size(); ++f)
      for (size_t p = 0; p < outputs[0][f].size(); ++p) {
        const RefPlane &a = outputs[0][f][p], &b = outputs[1][f][p];
        size_t differ = 0, first = 0;
        for (size_t n = 0; n < a.data.size(); ++n)
          if (a.data[n] != b.data[n] && differ++ == 0) first = n;
        const size_t row = size_t(a.w) * a.channels;
        EXPECT_EQ(differ, 0u) << "frame " << f << " plane " << p << ": " << differ
                              << " bytes depend on unwritten memory; first at byte " << first % row << " of row "
                              << first / row << " (" << int(a.data[first]) << " / " << int(b.data[first]) << ")";
      }
    ++checked_;
  }

  std::unique_ptr<TestFrame> frame(clvf_pixel_format f, int w, int h, uint8_t padding) {
    auto frame = std::make_unique<TestFrame>(device_->context(), device_->queue(), GetParam(),
                                             colour_plane_shapes(f, w, h), colour_image_formats(f));
    frame->set_padding_byte(padding);
    return frame;
  }
  std::unique_ptr<TestFrame> source(clvf_pixel_format f, const Planes& planes, uint8_t padding) {
    auto in = frame(f, planes[0].w, planes[0].h, padding);
    in->fill(planes);
    return in;
  }
  // A destination whose samples and padding all hold `poison`.
  std::unique_ptr<TestFrame> destination(clvf_pixel_format f, int w, int h, uint8_t poison) {
    auto out = frame(f, w, h, poison);
    Planes planes = colour_plane_shapes(f, w, h);
    for (RefPlane& pl : planes) pl.data.assign(size_t(pl.w) * pl.h * pl.channels, poison);
    out->fill(planes);
    return out;
  }
  Planes read(TestFrame& out) {
    bool padding_intact = false;
    Planes got = out.read(&padding_intact);
    EXPECT_TRUE(padding_intact) << "bytes outside the destination planes were written";
    return got;
  }
  // Whether this storage can hold frames of `a` and `b` here; creation's status when it cannot.
  bool storage_holds(clvf_pixel_format a, clvf_pixel_format b, int w, int h) {
    return images_fit(*device_, GetParam(), a, w, h) && images_fit(*device_, GetParam(), b, w, h);
  }

  std::mt19937_64 rng_{checker_seed() + 31 * GetParam()};
  int checked_ = 0;

  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  // 1x1, one row, one column, then random sizes (odd ones among them).
  std::pair<int, int> size(int n, int max) {
    static const int fixed[][2] = {{1, 1}, {7, 1}, {1, 5}};
    if (n < 3) return {fixed[n][0], fixed[n][1]};
    return {uniform(1, max), uniform(1, max)};
  }
  int max_size() const { return small_only() ? 24 : 120; }

  void TearDown() override {
    RecordProperty("cases_checked", checked_);
    StorageChecker::TearDown();
  }
};

constexpr clvf_pixel_format kScaleFormats[] = {CLVF_PIX_NV12, CLVF_PIX_YUV420P, CLVF_PIX_YV12, CLVF_PIX_P010,
                                               CLVF_PIX_YUV444P};
constexpr clvf_pixel_format kAllFormats[] = {CLVF_PIX_NV12,    CLVF_PIX_YUV420P, CLVF_PIX_YV12, CLVF_PIX_P010,
                                             CLVF_PIX_YUV444P, CLVF_PIX_RGBA,    CLVF_PIX_BGRA};

// Every algorithm, up and down, with and without a conversion in the same operation.
TEST_P(UnwrittenReads, Scale) {
  const int count = small_only() ? 8 : 12;
  for (int n = 0; n < count; ++n) {
    clvf_scale_params p;
    clvf_scale_params_default(&p);
    p.format = kScaleFormats[n % std::size(kScaleFormats)];
    std::tie(p.src_width, p.src_height) = size(n, max_size());
    std::tie(p.dst_width, p.dst_height) = size(uniform(0, 5), max_size());
    p.algorithm = clvf_scale_algorithm(1 + n % 8);
    p.taps = uniform(1, 6);
    if (n % 3 == 2) p.dst_format = kAllFormats[uniform(0, 6)];
    p.src_storage = p.dst_storage = GetParam();
    const clvf_pixel_format out_format = p.dst_format ? p.dst_format : p.format;
    SCOPED_TRACE(fmt::format("{} {}x{} -> {} {}x{}, algorithm {}", format_name(p.format), p.src_width, p.src_height,
                             format_name(out_format), p.dst_width, p.dst_height, int(p.algorithm)));
    if (!storage_holds(p.format, out_format, std::max(p.src_width, p.dst_width), std::max(p.src_height, p.dst_height)))
      continue;
    clvf_scale* op = nullptr;
    const clvf_status st = clvf_scale_create(handle_, &p, &op);
    if (expect_unsupported_images(*device_, GetParam(), p.format, out_format, st)) continue;
    ASSERT_EQ(st, CLVF_OK) << clvf_last_error();
    const Planes src = pack(p.format, random_components(p.format, p.src_width, p.src_height, rng_), p.src_width,
                            p.src_height);
    expect_independent_of_unwritten_memory([&](uint8_t poison) -> std::vector<Planes> {
      // A new operation per run: its own buffers are made (and poisoned) at creation.
      clvf_scale* run = nullptr;
      EXPECT_EQ(clvf_scale_create(handle_, &p, &run), CLVF_OK) << clvf_last_error();
      if (!run) return {};
      auto in = source(p.format, src, poison);
      auto out = destination(out_format, p.dst_width, p.dst_height, poison);
      EXPECT_EQ(clvf_scale_process(run, &in->frame(), &out->frame()), CLVF_OK) << clvf_last_error();
      clvf_scale_release(run);
      return {read(*out)};
    });
    clvf_scale_release(op);
  }
}

TEST_P(UnwrittenReads, Colorspace) {
  const int count = small_only() ? 8 : 12;
  for (int n = 0; n < count; ++n) {
    clvf_colorspace_params p;
    clvf_colorspace_params_default(&p);
    std::tie(p.width, p.height) = size(n, max_size());
    p.src_format = kAllFormats[n % 7], p.dst_format = kAllFormats[uniform(0, 6)];
    p.src_range = format_is_rgb(p.src_format) ? CLVF_RANGE_PC : CLVF_RANGE_TV;
    p.dst_range = format_is_rgb(p.dst_format) ? CLVF_RANGE_PC : CLVF_RANGE_TV;
    p.dst_matrix = n % 2 ? CLVF_MATRIX_BT2020_NCL : CLVF_MATRIX_BT709;
    p.chroma_filter = clvf_scale_algorithm(1 + uniform(0, 7));
    p.dither = clvf_dither(uniform(0, 2));
    p.src_storage = p.dst_storage = GetParam();
    SCOPED_TRACE(fmt::format("{} -> {} {}x{}", format_name(p.src_format), format_name(p.dst_format), p.width,
                             p.height));
    if (!storage_holds(p.src_format, p.dst_format, p.width, p.height)) continue;
    clvf_colorspace* op = nullptr;
    const clvf_status st = clvf_colorspace_create(handle_, &p, &op);
    if (expect_unsupported_images(*device_, GetParam(), p.src_format, p.dst_format, st)) continue;
    ASSERT_EQ(st, CLVF_OK) << clvf_last_error();
    clvf_colorspace_release(op);
    const Planes src = pack(p.src_format, random_components(p.src_format, p.width, p.height, rng_), p.width, p.height);
    expect_independent_of_unwritten_memory([&](uint8_t poison) -> std::vector<Planes> {
      clvf_colorspace* run = nullptr;
      EXPECT_EQ(clvf_colorspace_create(handle_, &p, &run), CLVF_OK) << clvf_last_error();
      if (!run) return {};
      auto in = source(p.src_format, src, poison);
      auto out = destination(p.dst_format, p.width, p.height, poison);
      EXPECT_EQ(clvf_colorspace_process(run, &in->frame(), &out->frame()), CLVF_OK) << clvf_last_error();
      clvf_colorspace_release(run);
      return {read(*out)};
    });
  }
}

// Spatial and temporal (the ring: frames at the ends of the stream have fewer neighbours).
TEST_P(UnwrittenReads, Denoise) {
  const int count = small_only() ? 6 : 8;
  for (int n = 0; n < count; ++n) {
    clvf_denoise_params p;
    clvf_denoise_params_default(&p);
    p.format = n % 2 ? CLVF_PIX_NV12 : CLVF_PIX_YUV420P;
    std::tie(p.width, p.height) = size(n, max_size());
    p.strength = uniform(2, 12);
    p.patch_size = 1 + 2 * uniform(0, 3), p.research_size = 1 + 2 * uniform(0, 4);
    p.temporal_radius = n % 4;
    p.planes = n == 5 ? 0x1u : 0xfu;
    p.weighting = clvf_denoise_weighting(uniform(0, 3));
    p.src_storage = p.dst_storage = GetParam();
    const int frames = p.temporal_radius ? uniform(1, 2 * p.temporal_radius + 2) : 1;
    SCOPED_TRACE(fmt::format("{} {}x{} t={} frames={} p={} r={}", format_name(p.format), p.width, p.height,
                             p.temporal_radius, frames, p.patch_size, p.research_size));
    if (!storage_holds(p.format, p.format, p.width, p.height)) continue;
    clvf_denoise* op = nullptr;
    const clvf_status st = clvf_denoise_create(handle_, &p, &op);
    if (expect_unsupported_nv12_images(GetParam(), p.format, st)) continue;
    ASSERT_EQ(st, CLVF_OK) << clvf_last_error();
    clvf_denoise_release(op);
    std::vector<Planes> inputs;
    for (int f = 0; f < frames; ++f)
      inputs.push_back(pack(p.format, random_components(p.format, p.width, p.height, rng_), p.width, p.height));
    expect_independent_of_unwritten_memory([&](uint8_t poison) -> std::vector<Planes> {
      clvf_denoise* run = nullptr;
      EXPECT_EQ(clvf_denoise_create(handle_, &p, &run), CLVF_OK) << clvf_last_error();
      if (!run) return {};
      std::vector<Planes> outputs;
      std::vector<std::unique_ptr<TestFrame>> sources;
      const auto receive_all = [&] {
        for (;;) {
          auto out = destination(p.format, p.width, p.height, poison);
          int got = 0;
          EXPECT_EQ(clvf_denoise_receive(run, &out->frame(), &got), CLVF_OK) << clvf_last_error();
          if (!got) return;
          outputs.push_back(read(*out));
        }
      };
      for (const Planes& f : inputs) {
        sources.push_back(source(p.format, f, poison));
        EXPECT_EQ(clvf_denoise_send(run, &sources.back()->frame()), CLVF_OK) << clvf_last_error();
        receive_all();
      }
      EXPECT_EQ(clvf_denoise_send(run, nullptr), CLVF_OK) << clvf_last_error();
      receive_all();
      clvf_denoise_release(run);
      EXPECT_EQ(outputs.size(), inputs.size());
      return outputs;
    });
  }
}

// Chains: their stages meet in the chain's own buffers.
TEST_P(UnwrittenReads, Chain) {
  const char* chains[] = {
      "scale_clvf=w=trunc(iw/4)*2+2:h=ih-4:algorithm=lanczos,denoise_clvf=s=6:p=3:r=5",
      "denoise_clvf=s=4:p=3:r=3:t=1,colorspace_clvf=format=yuv444p,scale_clvf=w=17:h=9,colorspace_clvf=format=bgra",
      "colorspace_clvf=format=p010:matrix=bt2020nc,scale_clvf=w=iw*2:h=ih*2:algorithm=spline36,"
      "colorspace_clvf=format=nv12:matrix=bt709",
  };
  for (const char* chain : chains)
    for (int n = 0; n < 3; ++n) {
      clvf_stream input{};
      input.version = CLVF_API_VERSION;
      input.format = n % 2 ? CLVF_PIX_NV12 : CLVF_PIX_YUV420P;
      std::tie(input.width, input.height) = std::pair{2 * uniform(2, max_size() / 2), 2 * uniform(3, max_size() / 2)};
      SCOPED_TRACE(fmt::format("{} on {} {}x{}", chain, format_name(input.format), input.width, input.height));
      clvf_stream output{};
      ASSERT_EQ(clvf_chain_plan(chain, &input, &output), CLVF_OK) << clvf_last_error();
      if (!storage_holds(input.format, output.format, std::max(input.width, output.width),
                         std::max(input.height, output.height)))
        continue;
      clvf_chain* probe = nullptr;
      const clvf_status st = clvf_chain_create(handle_, chain, &input, GetParam(), GetParam(), &probe);
      if (expect_unsupported_images(*device_, GetParam(), input.format, output.format, st)) continue;
      ASSERT_EQ(st, CLVF_OK) << clvf_last_error();
      clvf_chain_release(probe);
      std::vector<Planes> inputs;
      for (int f = 0; f < 3; ++f)
        inputs.push_back(
            pack(input.format, random_components(input.format, input.width, input.height, rng_), input.width,
                 input.height));
      expect_independent_of_unwritten_memory([&](uint8_t poison) -> std::vector<Planes> {
        clvf_chain* run = nullptr;
        EXPECT_EQ(clvf_chain_create(handle_, chain, &input, GetParam(), GetParam(), &run), CLVF_OK)
            << clvf_last_error();
        if (!run) return {};
        std::vector<Planes> outputs;
        for (size_t f = 0; f <= inputs.size(); ++f) {
          auto in = f < inputs.size() ? source(input.format, inputs[f], poison) : nullptr;
          for (int got = 1; got;) {
            auto out = destination(output.format, output.width, output.height, poison);
            EXPECT_EQ(clvf_chain_process(run, in ? &in->frame() : nullptr, &out->frame(), &got), CLVF_OK)
                << clvf_last_error();
            if (got) outputs.push_back(read(*out));
            if (in) break;  // one call per source frame; after the end, until nothing is left
          }
        }
        clvf_chain_release(run);
        EXPECT_EQ(outputs.size(), inputs.size());
        return outputs;
      });
    }
}

CLVF_INSTANTIATE_STORAGES(UnwrittenReads);

}  // namespace
}  // namespace clvf::detail::test
