// What every operation checks and derives from a pixel format and storage choice: the planes'
// geometry, and whether the device can hold them in the storage asked for.
#pragma once
#include <vector>

#include "clvf/clvf.h"
#include "runtime/frame_planes.hpp"
#include "runtime/device.hpp"
#include "runtime/ops/pixel_format.hpp"

namespace clvf::detail {

struct PlaneGeometry {
  int width = 0, height = 0;  // pixels
  int channels = 1;           // samples per pixel (2 for NV12's UV)
  int bytes = 1;              // per sample
  bool operator==(const PlaneGeometry&) const = default;
};

// Throws Error(INVALID_ARGUMENT) "OP: ..." naming what is allowed.
void check_version(const char* op, uint32_t version);
// The 8-bit 4:2:0 formats (scale, denoise).
void check_format(const char* op, int format);
// Any format clvf knows; `which` names the field ("source format").
const PixelFormat& check_any_format(const char* op, const char* which, int format);
void check_size(const char* op, const char* name, int value);
void check_chroma_location(const char* op, int location);
void check_storages(const char* op, int src, int dst);
// Throws Error(UNSUPPORTED) when the storage is CL_IMAGE and the device lacks the image formats
// of the format's planes.
void check_image_support(const char* op, const Device& device, clvf_pixel_format format, clvf_storage storage);
void check_image_support(const char* op, const Device& device, clvf_pixel_format format, clvf_storage src,
                         clvf_storage dst);

std::vector<PlaneGeometry> planes_of(clvf_pixel_format format, int width, int height);
std::vector<PlaneShape> plane_shapes(const std::vector<PlaneGeometry>& planes);

// A 4:2:0 chroma sample's offset from its grid, in luma samples, along x and y.
double chroma_siting_x(clvf_chroma_location location);
double chroma_siting_y(clvf_chroma_location location);

}  // namespace clvf::detail
