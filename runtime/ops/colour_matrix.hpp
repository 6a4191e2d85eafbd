// The affine map, in float64, from a format's component values (Y, U, V or R, G, B as stored
// integers) to another's, through normalised R'G'B': decode the source's range and matrix,
// encode the destination's.
#pragma once
#include <array>
#include <string_view>

#include "clvf/clvf.h"
#include "runtime/ops/pixel_format.hpp"

namespace clvf::detail {

struct ColourCoding {
  const PixelFormat* format = nullptr;
  clvf_matrix matrix = CLVF_MATRIX_BT709;  // YUV formats only
  clvf_range range = CLVF_RANGE_TV;
};

// out[k] = sum_j m[k][j] * in[j] + m[k][3]; coefficients within 1e-12 of 0 are exactly 0.
using Affine = std::array<std::array<double, 4>, 3>;
Affine colour_affine(const ColourCoding& src, const ColourCoding& dst);

// Throw Error(INVALID_ARGUMENT) listing the known names.
clvf_matrix matrix_from_name(std::string_view name);
clvf_range range_from_name(std::string_view name);
clvf_dither dither_from_name(std::string_view name);
const char* matrix_name(int matrix);  // "" when unknown
const char* range_name(int range);    // "" when unknown
extern const char* const kMatrixNames;

}  // namespace clvf::detail
