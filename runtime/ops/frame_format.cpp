#include "runtime/ops/frame_format.hpp"

#include <fmt/format.h>

#include "runtime/error.hpp"

namespace clvf::detail {
namespace {

[[noreturn]] void invalid(const std::string& message) { throw Error(CLVF_ERROR_INVALID_ARGUMENT, message); }

bool is_storage(int s) {
  return s >= CLVF_STORAGE_HOST && s <= CLVF_STORAGE_CUDA;
}
}  // namespace

void check_version(const char* op, uint32_t version) {
  if (version != CLVF_API_VERSION)
    invalid(fmt::format("{}: params.version is {}, this library speaks version {}", op, version, CLVF_API_VERSION));
}

void check_format(const char* op, int format) {
  if (format != CLVF_PIX_NV12 && format != CLVF_PIX_YUV420P)
    invalid(fmt::format("{}: format {} is not supported; allowed: nv12, yuv420p", op, format));
}

void check_size(const char* op, const char* name, int value) {
  if (value < 1 || value > CLVF_MAX_SIDE)
    invalid(fmt::format("{}: {} is {}; allowed: 1 to {}", op, name, value, CLVF_MAX_SIDE));
}

void check_chroma_location(const char* op, int location) {
  if (location != CLVF_CHROMA_LEFT && location != CLVF_CHROMA_CENTER && location != CLVF_CHROMA_TOPLEFT)
    invalid(fmt::format("{}: chroma location {} is not known; allowed: left, center, topleft", op, location));
}

void check_storages(const char* op, int src, int dst) {
  if (!is_storage(src) || !is_storage(dst))
    invalid(fmt::format("{}: storage must be CLVF_STORAGE_HOST, CL_BUFFER, CL_IMAGE, D3D11, DXVA2 or CUDA", op));
}

const PixelFormat& check_any_format(const char* op, const char* which, int format) {
  const PixelFormat* f = find_pixel_format(format);
  if (!f) invalid(fmt::format("{}: {} {} is not known; allowed: {}", op, which, format, kPixelFormatNames));
  return *f;
}

void check_image_support(const char* op, const Device& device, clvf_pixel_format format, clvf_storage storage) {
  if (storage != CLVF_STORAGE_CL_IMAGE) return;
  const PixelFormat& f = check_any_format(op, "format", format);
  const auto name = [](cl_channel_order o) {
    return o == CL_R ? "CL_R" : o == CL_RG ? "CL_RG" : o == CL_RGBA ? "CL_RGBA" : "CL_BGRA";
  };
  for (size_t i = 0; i < f.planes.size(); ++i) {
    const cl_channel_order order = f.planes[i].image_order;
    if (device.supports_image_format(order, f.image_type)) continue;
    throw Error(CLVF_ERROR_UNSUPPORTED,
                fmt::format("{}: {} in images needs {}/{} images (plane {}), which device {} lacks; use buffer or "
                            "host storage{}",
                            op, f.name, name(order), f.image_type == CL_UNORM_INT8 ? "CL_UNORM_INT8" : "CL_UNORM_INT16",
                            i, device.name(), format == CLVF_PIX_NV12 ? ", or yuv420p" : ""));
  }
}

void check_image_support(const char* op, const Device& device, clvf_pixel_format format, clvf_storage src,
                         clvf_storage dst) {
  check_image_support(op, device, format, src);
  check_image_support(op, device, format, dst);
}

std::vector<PlaneGeometry> planes_of(clvf_pixel_format format, int width, int height) {
  const PixelFormat* f = find_pixel_format(format);
  std::vector<PlaneGeometry> planes;
  for (const PlaneLayout& l : f->planes)
    planes.push_back({(width + l.sub_x - 1) / l.sub_x, (height + l.sub_y - 1) / l.sub_y, l.channels, f->bytes});
  return planes;
}

std::vector<PlaneShape> plane_shapes(const std::vector<PlaneGeometry>& planes) {
  std::vector<PlaneShape> shapes;
  for (const PlaneGeometry& g : planes) shapes.push_back({size_t(g.width) * g.channels * g.bytes, size_t(g.height), size_t(g.bytes)});
  return shapes;
}

double chroma_siting_x(clvf_chroma_location location) { return location == CLVF_CHROMA_CENTER ? 0.5 : 0.0; }
double chroma_siting_y(clvf_chroma_location location) { return location == CLVF_CHROMA_TOPLEFT ? 0.0 : 0.5; }

}  // namespace clvf::detail
