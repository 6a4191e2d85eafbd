// The layout of every pixel format clvf knows: planes (subsampling, channels, bytes per sample,
// image format), where each colour component lives, and the sample depth.
#pragma once
#include <cstring>
#include <string_view>
#include <vector>

#include "clvf/clvf.h"

namespace clvf::detail {

struct PlaneLayout {
  int sub_x = 1, sub_y = 1;  // 2: half size, rounded up
  int channels = 1;          // samples per pixel
  cl_channel_order image_order = CL_R;
};

struct Component {
  int plane = -1, channel = 0;  // plane -1: the format has no such component
};

struct PixelFormat {
  clvf_pixel_format id{};
  const char* name = "";
  bool rgb = false;
  int depth = 8;  // bits of a sample's value
  int bytes = 1;  // per stored sample
  int shift = 0;  // value = stored >> shift (P010 keeps its 10 bits at the top)
  cl_channel_type image_type = CL_UNORM_INT8;
  std::vector<PlaneLayout> planes;
  // Y, U, V, A for YUV formats; R, G, B, A for RGB ones.
  Component components[4];
  bool subsampled() const { return planes.size() > 1 && planes[1].sub_x > 1; }
  int max_value() const { return (1 << depth) - 1; }
};

// nullptr when the format is not known (any int a C caller stored).
const PixelFormat* find_pixel_format(int format);

// The value of an enum field as the caller stored it: a C caller may store any int, and loading
// one outside the enumerators' range as the enum type is undefined in C++. Validation reads
// fields through this.
template <typename E>
int raw(const E& field) {
  static_assert(sizeof(E) == sizeof(int));
  int v;
  std::memcpy(&v, &field, sizeof v);
  return v;
}
// Throws Error(INVALID_ARGUMENT) listing the known names.
clvf_pixel_format pixel_format_from_name(std::string_view name);
extern const char* const kPixelFormatNames;

}  // namespace clvf::detail
