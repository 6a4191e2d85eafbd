// What the scale and colour checkers share: random source components, poison, and the check of
// an operation's output components against a float64 reference (within rounding, or equal to
// floor(exact + Bayer threshold) when dithered; alpha exact).
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "reference_colour.hpp"
#include "runtime/device.hpp"

namespace clvf::detail::test {

inline const char* format_name(clvf_pixel_format f) {
  static const char* names[] = {"none", "yuv420p", "nv12", "yv12", "p010", "yuv444p", "rgba", "bgra"};
  return f >= 0 && f <= CLVF_PIX_BGRA ? names[f] : "?";
}

// With image storage on a device that lacks an image format of `a` or `b`, creation must have
// failed with UNSUPPORTED naming images: true when so (the case is skipped), false when the
// device has them.
inline bool expect_unsupported_images(const Device& d, clvf_storage storage, clvf_pixel_format a, clvf_pixel_format b,
                                      clvf_status status) {
  const auto has = [&](clvf_pixel_format f) {
    for (const auto& fmt : colour_image_formats(f))
      if (!d.supports_image_format(fmt.image_channel_order, fmt.image_channel_data_type)) return false;
    return true;
  };
  if (storage != CLVF_STORAGE_CL_IMAGE || (has(a) && has(b))) return false;
  EXPECT_EQ(status, CLVF_ERROR_UNSUPPORTED) << "the device lacks an image format this needs";
  EXPECT_NE(std::string(clvf_last_error()).find("images"), std::string::npos) << clvf_last_error();
  return true;
}

// Whether a frame of `f`, w x h, can be held in images on this device (PoCL's largest 2D image
// depends on the machine's memory: 8192 on some, 16384 on others). The 16K-wide cases skip image
// storage where it cannot.
inline bool images_fit(const Device& d, clvf_storage storage, clvf_pixel_format f, int w, int h) {
  if (storage != CLVF_STORAGE_CL_IMAGE) return true;
  const size_t max_w = d.device().getInfo<CL_DEVICE_IMAGE2D_MAX_WIDTH>();
  const size_t max_h = d.device().getInfo<CL_DEVICE_IMAGE2D_MAX_HEIGHT>();
  for (const auto& plane : colour_plane_shapes(f, w, h))
    if (size_t(plane.w) > max_w || size_t(plane.h) > max_h) return false;
  return true;
}

// Random values over each component's whole code range.
inline Components random_components(clvf_pixel_format f, int w, int h, std::mt19937_64& rng) {
  auto planes = colour_plane_shapes(f, w, h);
  for (auto& pl : planes) pl.data.assign(size_t(pl.w) * pl.h * pl.channels, 0);
  Components c = unpack(f, planes, w, h);
  const int max = (1 << format_depth(f)) - 1;
  for (auto& values : c.value)
    for (auto& v : values) v = double(std::uniform_int_distribution<int>(0, max)(rng));
  return c;
}

// The value farthest from the reference in each sample.
inline Components poison_for(const Components& ref, clvf_pixel_format f) {
  const int max = (1 << format_depth(f)) - 1;
  Components poison = ref;
  for (auto& values : poison.value)
    for (auto& v : values) v = v < max / 2.0 ? max : 0;
  return poison;
}

inline void expect_components_match(const Components& got, const Components& ref, clvf_pixel_format f, bool dithered) {
  const double max = (1 << format_depth(f)) - 1;
  for (int k = 0; k < 4; ++k) {
    ASSERT_EQ(got.present[k], ref.present[k]) << "component " << k;
    if (!ref.present[k]) continue;
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < ref.value[k].size(); ++i) {
      const double exact = ref.value[k][i], value = got.value[k][i];
      bool ok;
      if (k == 3) {
        ok = value == exact;
      } else if (dithered) {
        const double t = exact + bayer_threshold(int(i % got.w[k]), int(i / got.w[k]));
        const double expected = std::clamp(std::floor(t), 0.0, max);
        ok = value == expected || (std::abs(t - std::round(t)) < 0.02 && std::abs(value - expected) <= 1);
      } else {
        ok = std::abs(value - std::clamp(exact, 0.0, max)) <= 0.5 + 0.02;
      }
      if (!ok && bad++ == 0) first = i;
    }
    EXPECT_EQ(bad, 0u) << "component " << k << ": " << bad << " of " << ref.value[k].size()
                       << " samples wrong; first at " << first % std::max(1, got.w[k]) << ","
                       << first / std::max(1, got.w[k]) << ": got " << got.value[k][first] << ", exact "
                       << ref.value[k][first];
  }
}

}  // namespace clvf::detail::test
