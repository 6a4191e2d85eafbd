// Plain float64 reference for colour conversion, written from the definitions: unpack each
// format's bytes by hand, bring the source components to each output sample's position (the
// scale reference's resampling), decode to R'G'B' with the textbook equations
// (R = Y + 2(1-Kr)Pr, B = Y + 2(1-Kb)Pb, G = (Y - Kr R - Kb B)/Kg), encode, scale to the
// destination's range. Independent of the library's layout tables and matrices.
#pragma once
#include <vector>

#include "clvf/clvf.h"
#include "reference_scale.hpp"
#include "runtime/cl.hpp"

namespace clvf::detail::test {

// Component values (Y U V A or R G B A), each on its own grid (4:2:0 chroma at half size).
struct Components {
  int w[4] = {}, h[4] = {};
  bool present[4] = {};
  bool subsampled[4] = {};  // on the 4:2:0 chroma grid
  std::vector<double> value[4];
};

// A format's planes (channels = bytes per pixel) and, for image storage, their image formats.
std::vector<RefPlane> colour_plane_shapes(clvf_pixel_format format, int w, int h);
std::vector<cl::ImageFormat> colour_image_formats(clvf_pixel_format format);
int format_depth(clvf_pixel_format format);
bool format_is_rgb(clvf_pixel_format format);
bool format_is_subsampled(clvf_pixel_format format);

Components unpack(clvf_pixel_format format, const std::vector<RefPlane>& planes, int w, int h);
std::vector<RefPlane> pack(clvf_pixel_format format, const Components& c, int w, int h);

// The exact (unrounded, unclamped) destination components for a source.
Components reference_colour(const clvf_colorspace_params& p, const Components& src);

// The ordered dither threshold in (0, 1) at (x, y): the 16x16 Bayer matrix built recursively.
double bayer_threshold(int x, int y);

}  // namespace clvf::detail::test
