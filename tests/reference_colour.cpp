#include "reference_colour.hpp"

#include <cmath>
#include <stdexcept>

namespace clvf::detail::test {
namespace {

struct Kr {
  double kr, kb;
};
Kr coefficients(clvf_matrix m) {
  switch (m) {
    case CLVF_MATRIX_BT709: return {0.2126, 0.0722};
    case CLVF_MATRIX_BT470BG:
    case CLVF_MATRIX_SMPTE170M: return {0.299, 0.114};
    case CLVF_MATRIX_SMPTE240M: return {0.212, 0.087};
    case CLVF_MATRIX_BT2020_NCL: return {0.2627, 0.0593};
  }
  throw std::invalid_argument("matrix");
}

// Where each component of a format is stored: plane, byte offset in the pixel.
struct Slot {
  int plane, byte;
};
std::vector<Slot> slots(clvf_pixel_format f) {
  switch (f) {
    case CLVF_PIX_YUV420P:
    case CLVF_PIX_YUV444P: return {{0, 0}, {1, 0}, {2, 0}};
    case CLVF_PIX_YV12: return {{0, 0}, {2, 0}, {1, 0}};
    case CLVF_PIX_NV12: return {{0, 0}, {1, 0}, {1, 1}};
    case CLVF_PIX_P010: return {{0, 0}, {1, 0}, {1, 2}};
    case CLVF_PIX_RGBA: return {{0, 0}, {0, 1}, {0, 2}, {0, 3}};
    case CLVF_PIX_BGRA: return {{0, 2}, {0, 1}, {0, 0}, {0, 3}};
  }
  throw std::invalid_argument("format");
}

int sample_bytes(clvf_pixel_format f) { return f == CLVF_PIX_P010 ? 2 : 1; }

}  // namespace

int format_depth(clvf_pixel_format f) { return f == CLVF_PIX_P010 ? 10 : 8; }
bool format_is_rgb(clvf_pixel_format f) { return f == CLVF_PIX_RGBA || f == CLVF_PIX_BGRA; }
bool format_is_subsampled(clvf_pixel_format f) {
  return f == CLVF_PIX_YUV420P || f == CLVF_PIX_YV12 || f == CLVF_PIX_NV12 || f == CLVF_PIX_P010;
}

std::vector<RefPlane> colour_plane_shapes(clvf_pixel_format f, int w, int h) {
  const int cw = (w + 1) / 2, ch = (h + 1) / 2;
  switch (f) {
    case CLVF_PIX_YUV420P:
    case CLVF_PIX_YV12: return {{w, h, 1, {}}, {cw, ch, 1, {}}, {cw, ch, 1, {}}};
    case CLVF_PIX_NV12: return {{w, h, 1, {}}, {cw, ch, 2, {}}};
    case CLVF_PIX_P010: return {{w, h, 2, {}}, {cw, ch, 4, {}}};
    case CLVF_PIX_YUV444P: return {{w, h, 1, {}}, {w, h, 1, {}}, {w, h, 1, {}}};
    case CLVF_PIX_RGBA:
    case CLVF_PIX_BGRA: return {{w, h, 4, {}}};
  }
  throw std::invalid_argument("format");
}

std::vector<cl::ImageFormat> colour_image_formats(clvf_pixel_format f) {
  switch (f) {
    case CLVF_PIX_NV12: return {{CL_R, CL_UNORM_INT8}, {CL_RG, CL_UNORM_INT8}};
    case CLVF_PIX_P010: return {{CL_R, CL_UNORM_INT16}, {CL_RG, CL_UNORM_INT16}};
    case CLVF_PIX_RGBA: return {{CL_RGBA, CL_UNORM_INT8}};
    case CLVF_PIX_BGRA: return {{CL_BGRA, CL_UNORM_INT8}};
    default: return {{CL_R, CL_UNORM_INT8}, {CL_R, CL_UNORM_INT8}, {CL_R, CL_UNORM_INT8}};
  }
}

Components unpack(clvf_pixel_format f, const std::vector<RefPlane>& planes, int w, int h) {
  Components c;
  const auto s = slots(f);
  const int bytes = sample_bytes(f), shift = f == CLVF_PIX_P010 ? 6 : 0;
  for (size_t k = 0; k < s.size(); ++k) {
    const RefPlane& p = planes[s[k].plane];
    c.present[k] = true;
    c.subsampled[k] = format_is_subsampled(f) && (k == 1 || k == 2);
    c.w[k] = p.w, c.h[k] = p.h;
    c.value[k].resize(size_t(p.w) * p.h);
    for (int y = 0; y < p.h; ++y)
      for (int x = 0; x < p.w; ++x) {
        const uint8_t* px = &p.data[(size_t(y) * p.w + x) * p.channels + s[k].byte];
        const int stored = bytes == 1 ? px[0] : px[0] | px[1] << 8;
        c.value[k][size_t(y) * p.w + x] = stored >> shift;
      }
  }
  (void)w, (void)h;
  return c;
}

std::vector<RefPlane> pack(clvf_pixel_format f, const Components& c, int w, int h) {
  auto planes = colour_plane_shapes(f, w, h);
  for (auto& p : planes) p.data.assign(size_t(p.w) * p.h * p.channels, 0);
  const auto s = slots(f);
  const int bytes = sample_bytes(f), shift = f == CLVF_PIX_P010 ? 6 : 0;
  for (size_t k = 0; k < s.size(); ++k) {
    RefPlane& p = planes[s[k].plane];
    for (int y = 0; y < p.h; ++y)
      for (int x = 0; x < p.w; ++x) {
        const int v = static_cast<int>(c.value[k][size_t(y) * p.w + x]) << shift;
        uint8_t* px = &p.data[(size_t(y) * p.w + x) * p.channels + s[k].byte];
        px[0] = static_cast<uint8_t>(v);
        if (bytes == 2) px[1] = static_cast<uint8_t>(v >> 8);
      }
  }
  return planes;
}

Components reference_colour(const clvf_colorspace_params& p, const Components& src) {
  const int w = p.width, h = p.height, cw = (w + 1) / 2, ch = (h + 1) / 2;
  const bool src_rgb = format_is_rgb(p.src_format), dst_rgb = format_is_rgb(p.dst_format);
  const bool dst_sub = format_is_subsampled(p.dst_format);
  const double sx = p.chroma_location == CLVF_CHROMA_CENTER ? 0.5 : 0.0;
  const double sy = p.chroma_location == CLVF_CHROMA_TOPLEFT ? 0.0 : 0.5;

  // Source component k brought to a grid of gw x gh (subsampled or not).
  const auto at_grid = [&](int k, bool sub) {
    const bool src_sub = src.subsampled[k];
    if (src_sub == sub) return src.value[k];
    RefScale s;
    s.algorithm = p.chroma_filter, s.b = p.param_b, s.c = p.param_c, s.taps = p.taps;
    s.luma_src_w = s.luma_dst_w = w, s.luma_src_h = s.luma_dst_h = h;
    s.subsampling = src_sub ? 2 : 1;
    s.siting_x = src_sub ? sx : 0, s.siting_y = src_sub ? sy : 0;
    s.dst_subsampling = sub ? 2 : 1;
    s.dst_siting_x = sub ? sx : 0, s.dst_siting_y = sub ? sy : 0;
    return reference_scale(src.value[k], src.w[k], src.h[k], 1, sub ? cw : w, sub ? ch : h, s);
  };

  // Normalised source components -> normalised destination components.
  const double in_unit = 1 << (format_depth(p.src_format) - 8), out_unit = 1 << (format_depth(p.dst_format) - 8);
  const double in_max = (1 << format_depth(p.src_format)) - 1, out_max = (1 << format_depth(p.dst_format)) - 1;
  const auto convert = [&](double a, double b, double c, double out[3]) {
    double r, g, bl;
    if (src_rgb) {
      r = a / in_max, g = b / in_max, bl = c / in_max;
    } else {
      double y, pb, pr;
      if (p.src_range == CLVF_RANGE_TV)
        y = (a - 16 * in_unit) / (219 * in_unit), pb = (b - 128 * in_unit) / (224 * in_unit),
        pr = (c - 128 * in_unit) / (224 * in_unit);
      else
        y = a / in_max, pb = (b - (in_max + 1) / 2) / in_max, pr = (c - (in_max + 1) / 2) / in_max;
      const auto [kr, kb] = coefficients(p.src_matrix);
      r = y + 2 * (1 - kr) * pr;
      bl = y + 2 * (1 - kb) * pb;
      g = (y - kr * r - kb * bl) / (1 - kr - kb);
    }
    if (dst_rgb) {
      out[0] = r * out_max, out[1] = g * out_max, out[2] = bl * out_max;
      return;
    }
    const auto [kr, kb] = coefficients(p.dst_matrix);
    const double y = kr * r + (1 - kr - kb) * g + kb * bl;
    const double pb = (bl - y) / (2 * (1 - kb)), pr = (r - y) / (2 * (1 - kr));
    if (p.dst_range == CLVF_RANGE_TV)
      out[0] = 16 * out_unit + 219 * out_unit * y, out[1] = 128 * out_unit + 224 * out_unit * pb,
      out[2] = 128 * out_unit + 224 * out_unit * pr;
    else
      out[0] = out_max * y, out[1] = (out_max + 1) / 2 + out_max * pb, out[2] = (out_max + 1) / 2 + out_max * pr;
  };

  Components out;
  const bool dst_alpha = p.dst_format == CLVF_PIX_RGBA || p.dst_format == CLVF_PIX_BGRA;
  for (bool sub : {false, true}) {
    if (sub && !dst_sub) break;
    const int gw = sub ? cw : w, gh = sub ? ch : h;
    const auto c0 = at_grid(0, sub), c1 = at_grid(1, sub), c2 = at_grid(2, sub);
    for (int k = 0; k < 3; ++k) {
      const bool on_grid = dst_sub ? (k == 0) != sub : !sub;
      if (!on_grid) continue;
      out.present[k] = true, out.subsampled[k] = sub, out.w[k] = gw, out.h[k] = gh;
      out.value[k].resize(size_t(gw) * gh);
      for (size_t n = 0; n < out.value[k].size(); ++n) {
        double v[3];
        convert(c0[n], c1[n], c2[n], v);
        out.value[k][n] = v[k];
      }
    }
  }
  if (dst_alpha) {
    out.present[3] = true, out.w[3] = w, out.h[3] = h;
    out.value[3] = src.present[3] ? src.value[3] : std::vector<double>(size_t(w) * h, out_max);
  }
  return out;
}

double bayer_threshold(int x, int y) {
  // M(2n)(x, y) = 4 M(n)(x mod n, y mod n) + [[0, 2], [3, 1]] at the block (x >= n, y >= n): the
  // lowest bits weigh most.
  int m = 0;
  for (int n = 1; n <= 8; n *= 2) {
    const int bx = (x / n) % 2, by = (y / n) % 2;
    static const int base[2][2] = {{0, 2}, {3, 1}};
    m = 4 * m + base[by][bx];
  }
  return (m + 0.5) / 256;
}

}  // namespace clvf::detail::test
