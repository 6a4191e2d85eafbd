#include "runtime/ops/frame_format.hpp"

#include <fmt/format.h>

#include "runtime/error.hpp"

namespace clvf {
namespace {
constexpr int kMaxSize = 16384;

[[noreturn]] void invalid(const std::string& message) { throw Error(CLVF_ERROR_INVALID_ARGUMENT, message); }

bool is_storage(clvf_storage s) {
  return s == CLVF_STORAGE_HOST || s == CLVF_STORAGE_CL_BUFFER || s == CLVF_STORAGE_CL_IMAGE;
}
}  // namespace

void check_version(const char* op, uint32_t version) {
  if (version != CLVF_API_VERSION)
    invalid(fmt::format("{}: params.version is {}, this library speaks version {}", op, version, CLVF_API_VERSION));
}

void check_format(const char* op, clvf_pixel_format format) {
  if (format != CLVF_PIX_NV12 && format != CLVF_PIX_YUV420P)
    invalid(fmt::format("{}: format {} is not supported; allowed: nv12, yuv420p", op, static_cast<int>(format)));
}

void check_size(const char* op, const char* name, int value) {
  if (value < 1 || value > kMaxSize) invalid(fmt::format("{}: {} is {}; allowed: 1 to {}", op, name, value, kMaxSize));
}

void check_storages(const char* op, clvf_storage src, clvf_storage dst) {
  if (!is_storage(src) || !is_storage(dst))
    invalid(fmt::format("{}: storage must be CLVF_STORAGE_HOST, CLVF_STORAGE_CL_BUFFER or CLVF_STORAGE_CL_IMAGE", op));
}

void check_image_support(const char* op, const Device& device, clvf_pixel_format format, clvf_storage src,
                         clvf_storage dst) {
  if (src != CLVF_STORAGE_CL_IMAGE && dst != CLVF_STORAGE_CL_IMAGE) return;
  if (!device.supports_image_format(CL_R, CL_UNORM_INT8))
    throw Error(CLVF_ERROR_UNSUPPORTED,
                fmt::format("{}: device {} has no CL_R/CL_UNORM_INT8 images; use buffer or host storage", op,
                            device.name()));
  if (format == CLVF_PIX_NV12 && !device.supports_image_format(CL_RG, CL_UNORM_INT8))
    throw Error(CLVF_ERROR_UNSUPPORTED,
                fmt::format("{}: NV12 in images needs CL_RG/CL_UNORM_INT8 images, which device {} lacks; "
                            "use buffer or host storage, or yuv420p",
                            op, device.name()));
}

std::vector<PlaneGeometry> planes_of(clvf_pixel_format format, int width, int height) {
  const int cw = (width + 1) / 2, chh = (height + 1) / 2;
  if (format == CLVF_PIX_NV12) return {{width, height, 1}, {cw, chh, 2}};
  return {{width, height, 1}, {cw, chh, 1}, {cw, chh, 1}};
}

std::vector<PlaneShape> plane_shapes(const std::vector<PlaneGeometry>& planes) {
  std::vector<PlaneShape> shapes;
  for (const PlaneGeometry& g : planes) shapes.push_back({size_t(g.width) * g.channels, size_t(g.height)});
  return shapes;
}

}  // namespace clvf
