#include "runtime/ops/pixel_format.hpp"

#include <fmt/format.h>

#include "runtime/error.hpp"

namespace clvf::detail {
namespace {

constexpr PlaneLayout kFull{1, 1, 1, CL_R};
constexpr PlaneLayout kHalf{2, 2, 1, CL_R};
constexpr PlaneLayout kHalfPairs{2, 2, 2, CL_RG};

const PixelFormat kFormats[] = {
    {CLVF_PIX_YUV420P, "yuv420p", false, 8, 1, 0, CL_UNORM_INT8, {kFull, kHalf, kHalf}, {{0, 0}, {1, 0}, {2, 0}, {}}},
    {CLVF_PIX_NV12, "nv12", false, 8, 1, 0, CL_UNORM_INT8, {kFull, kHalfPairs}, {{0, 0}, {1, 0}, {1, 1}, {}}},
    {CLVF_PIX_YV12, "yv12", false, 8, 1, 0, CL_UNORM_INT8, {kFull, kHalf, kHalf}, {{0, 0}, {2, 0}, {1, 0}, {}}},
    {CLVF_PIX_P010, "p010", false, 10, 2, 6, CL_UNORM_INT16, {kFull, kHalfPairs}, {{0, 0}, {1, 0}, {1, 1}, {}}},
    {CLVF_PIX_YUV444P, "yuv444p", false, 8, 1, 0, CL_UNORM_INT8, {kFull, kFull, kFull}, {{0, 0}, {1, 0}, {2, 0}, {}}},
    {CLVF_PIX_RGBA, "rgba", true, 8, 1, 0, CL_UNORM_INT8, {{1, 1, 4, CL_RGBA}}, {{0, 0}, {0, 1}, {0, 2}, {0, 3}}},
    {CLVF_PIX_BGRA, "bgra", true, 8, 1, 0, CL_UNORM_INT8, {{1, 1, 4, CL_BGRA}}, {{0, 2}, {0, 1}, {0, 0}, {0, 3}}},
};

}  // namespace

const char* const kPixelFormatNames = "nv12, yuv420p, yv12, p010 (or p010le), yuv444p, rgba, bgra";

const PixelFormat* find_pixel_format(int format) {
  for (const PixelFormat& f : kFormats)
    if (f.id == format) return &f;
  return nullptr;
}

clvf_pixel_format pixel_format_from_name(std::string_view name) {
  if (name == "p010le") return CLVF_PIX_P010;
  for (const PixelFormat& f : kFormats)
    if (name == f.name) return f.id;
  throw Error(CLVF_ERROR_INVALID_ARGUMENT,
              fmt::format("pixel format '{}' is not known; allowed: {}", name, kPixelFormatNames));
}

}  // namespace clvf::detail
