#include "runtime/ops/colour_matrix.hpp"

#include <fmt/format.h>

#include <cmath>

#include "runtime/error.hpp"

namespace clvf::detail {
namespace {

using Mat3 = std::array<std::array<double, 3>, 3>;

// Kr, Kb of each matrix (H.273 table 4).
void coefficients(clvf_matrix m, double& kr, double& kb) {
  switch (m) {
    case CLVF_MATRIX_BT709: kr = 0.2126, kb = 0.0722; return;
    case CLVF_MATRIX_BT470BG:
    case CLVF_MATRIX_SMPTE170M: kr = 0.299, kb = 0.114; return;
    case CLVF_MATRIX_SMPTE240M: kr = 0.212, kb = 0.087; return;
    case CLVF_MATRIX_BT2020_NCL: kr = 0.2627, kb = 0.0593; return;
  }
  throw Error(CLVF_ERROR_INTERNAL, "colour matrix not known");
}

// R'G'B' -> (Y', Pb, Pr), Pb and Pr in [-0.5, 0.5].
Mat3 rgb_to_yuv(clvf_matrix m) {
  double kr, kb;
  coefficients(m, kr, kb);
  const double kg = 1 - kr - kb;
  return {{{kr, kg, kb},
           {-kr / (2 * (1 - kb)), -kg / (2 * (1 - kb)), 0.5},
           {0.5, -kg / (2 * (1 - kr)), -kb / (2 * (1 - kr))}}};
}

Mat3 yuv_to_rgb(clvf_matrix m) {
  double kr, kb;
  coefficients(m, kr, kb);
  const double kg = 1 - kr - kb;
  return {{{1, 0, 2 * (1 - kr)},
           {1, -2 * (1 - kb) * kb / kg, -2 * (1 - kr) * kr / kg},
           {1, 2 * (1 - kb), 0}}};
}

// Stored value = offset + scale * normalised value, per component.
struct Quantisation {
  double offset[3], scale[3];
};

Quantisation quantisation(const ColourCoding& c) {
  const double unit = double(1 << (c.format->depth - 8));
  const double max = c.format->max_value();
  if (c.format->rgb) return {{0, 0, 0}, {max, max, max}};
  if (c.range == CLVF_RANGE_TV) return {{16 * unit, 128 * unit, 128 * unit}, {219 * unit, 224 * unit, 224 * unit}};
  const double mid = double(1 << (c.format->depth - 1));
  return {{0, mid, mid}, {max, max, max}};
}

Mat3 multiply(const Mat3& a, const Mat3& b) {
  Mat3 r{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) r[i][j] += a[i][k] * b[k][j];
  return r;
}

constexpr Mat3 kIdentity = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};

template <typename T>
struct Named {
  const char* name;
  T value;
};
constexpr Named<clvf_matrix> kMatrices[] = {
    {"bt709", CLVF_MATRIX_BT709},         {"bt601", CLVF_MATRIX_SMPTE170M},    {"bt470bg", CLVF_MATRIX_BT470BG},
    {"smpte170m", CLVF_MATRIX_SMPTE170M}, {"smpte240m", CLVF_MATRIX_SMPTE240M}, {"bt2020nc", CLVF_MATRIX_BT2020_NCL},
    {"bt2020ncl", CLVF_MATRIX_BT2020_NCL},
};
constexpr Named<clvf_range> kRanges[] = {
    {"tv", CLVF_RANGE_TV}, {"limited", CLVF_RANGE_TV}, {"mpeg", CLVF_RANGE_TV},
    {"pc", CLVF_RANGE_PC}, {"full", CLVF_RANGE_PC},    {"jpeg", CLVF_RANGE_PC},
};
constexpr Named<clvf_dither> kDithers[] = {
    {"auto", CLVF_DITHER_AUTO}, {"none", CLVF_DITHER_NONE}, {"ordered", CLVF_DITHER_ORDERED}};

template <typename T, size_t N>
T lookup(const Named<T> (&table)[N], std::string_view name, const char* what, const char* allowed) {
  for (const auto& e : table)
    if (name == e.name) return e.value;
  throw Error(CLVF_ERROR_INVALID_ARGUMENT, fmt::format("{} '{}' is not known; allowed: {}", what, name, allowed));
}

}  // namespace

const char* const kMatrixNames = "bt709, bt601 (or bt470bg, smpte170m), smpte240m, bt2020nc (or bt2020ncl)";

Affine colour_affine(const ColourCoding& src, const ColourCoding& dst) {
  const Mat3 decode = src.format->rgb ? kIdentity : yuv_to_rgb(src.matrix);
  const Mat3 encode = dst.format->rgb ? kIdentity : rgb_to_yuv(dst.matrix);
  const Mat3 m = multiply(encode, decode);  // normalised source components -> normalised destination
  const Quantisation qs = quantisation(src), qd = quantisation(dst);
  Affine a{};
  for (int k = 0; k < 3; ++k) {
    double constant = qd.offset[k];
    for (int j = 0; j < 3; ++j) {
      // in_j normalised = (stored_j - offset_j) / scale_j
      const double c = qd.scale[k] * m[k][j] / qs.scale[j];
      a[k][j] = std::fabs(c) < 1e-12 ? 0.0 : c;
      constant -= c * qs.offset[j];
    }
    a[k][3] = std::fabs(constant) < 1e-9 ? 0.0 : constant;
  }
  return a;
}

clvf_matrix matrix_from_name(std::string_view name) { return lookup(kMatrices, name, "matrix", kMatrixNames); }
clvf_range range_from_name(std::string_view name) {
  return lookup(kRanges, name, "range", "tv (or limited, mpeg), pc (or full, jpeg)");
}
clvf_dither dither_from_name(std::string_view name) { return lookup(kDithers, name, "dither", "auto, none, ordered"); }

const char* matrix_name(int matrix) {
  for (const auto& e : kMatrices)
    if (e.value == matrix) return e.name;
  return "";
}

const char* range_name(int range) {
  for (const auto& e : kRanges)
    if (e.value == range) return e.name;
  return "";
}

}  // namespace clvf::detail
