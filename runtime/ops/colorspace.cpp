#include "runtime/ops/colorspace.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>

#include "runtime/error.hpp"
#include "runtime/kernels.hpp"
#include "runtime/ops/frame_format.hpp"
#include "runtime/ops/frame_run.hpp"

namespace clvf::detail {

struct VectorPlan {
  std::vector<cl_uchar> fast;   // per block
  std::vector<float> pattern;   // resampling: per tap, 16 weights (even and odd outputs' alternately)
  std::vector<float> edge;      // resampling: blocks at a plane edge (edge_table)
  int even_shift = 0, odd_shift = 0;  // their first columns after the block's first loaded one
};

namespace {

constexpr const char* kOp = "colorspace";
// Luma rows a work-item converts together on CPUs (4:2:0 sources): they share chroma rows.
// 4 measured best (2 and 8 slower) on PoCL for bilinear and spline36 chroma.
constexpr int kLumaRowGroup = 4;

[[noreturn]] void invalid(const std::string& message) { throw Error(CLVF_ERROR_INVALID_ARGUMENT, message); }

void check_coding(const PixelFormat& f, int matrix, int range, const char* side) {
  if (!f.rgb && !*matrix_name(matrix))
    invalid(fmt::format("{}: {} matrix {} is not known; allowed: {}", kOp, side, matrix, kMatrixNames));
  if (!*range_name(range)) invalid(fmt::format("{}: {} range {} is not known; allowed: tv, pc", kOp, side, range));
  if (f.rgb && range != CLVF_RANGE_PC)
    invalid(fmt::format("{}: {} format {} is full range: its range must be pc", kOp, side, f.name));
}

// Components 0-2 that the outputs `outputs` (component indices) read, given the map.
std::array<bool, 3> needed(const Affine& a, std::initializer_list<int> outputs) {
  std::array<bool, 3> need{};
  for (int k : outputs)
    for (int j = 0; j < 3; ++j) need[j] = need[j] || a[k][j] != 0.0;
  return need;
}

// The output component each channel of a plane holds.
std::vector<int> channel_components(const PixelFormat& f, size_t plane, bool image) {
  std::vector<int> comps(f.planes[plane].channels);
  for (int k = 0; k < 4; ++k) {
    const Component& c = f.components[k];
    // An image of CL_BGRA takes and gives R, G, B, A in that order, as CL_RGBA does.
    if (c.plane == static_cast<int>(plane)) comps[image && f.rgb ? k : c.channel] = k;
  }
  return comps;
}

std::string store_statements(const PixelFormat& f, bool image, int sub) {
  std::string s;
  for (size_t p = 0; p < f.planes.size(); ++p) {
    if (f.planes[p].sub_x != sub) continue;
    std::vector<std::string> v;
    for (int k : channel_components(f, p, image)) v.push_back(fmt::format("q.s{}", k));
    if (image) {
      while (v.size() < 4) v.push_back("0.0f");
      s += fmt::format("STORE_IMAGE(out{}, x, y, (float4)({}, {}, {}, {})); ", p, v[0], v[1], v[2], v[3]);
    } else if (v.size() == 1) {
      s += fmt::format("STORE1({}, x, y, {}); ", p, v[0]);
    } else {
      s += fmt::format("STORE{}({}, x, y, (float{})({})); ", v.size(), p, v.size(), fmt::join(v, ", "));
    }
  }
  return s;
}

// The 16-pixel stores (q0..q2, qa): vector stores for 8-bit planes of one channel and pairs,
// else lane by lane.
std::string store16_statements(const PixelFormat& f, bool image, int sub) {
  const char* q[] = {"q0", "q1", "q2", "qa"};
  const std::string lanes = fmt::format("STORE_LANES({}, x0, y, {}, q1, q2, {});", sub == 1 ? "STORE_LUMA" : "STORE_CHROMA",
                                        sub == 1 ? "q0" : "q1", sub == 1 ? "qa" : "q1");
  if (image) return lanes;
  std::string s;
  for (size_t p = 0; p < f.planes.size(); ++p) {
    if (f.planes[p].sub_x != sub) continue;
    const auto comps = channel_components(f, p, false);
    if (comps.size() == 1 && f.bytes == 1)
      s += fmt::format("vstore16_u8(convert_uchar16({}), ROW({}, y) + (x0)); ", q[comps[0]], p);
    else if (comps.size() == 2)
      s += fmt::format("store16_pairs(ROW({}, y) + 2 * {} * (x0), {}, {}); ", p, f.bytes, q[comps[0]], q[comps[1]]);
    else if (comps.size() == 4 && f.bytes == 1)
      s += fmt::format("vstore16_px4({}, {}, {}, {}, ROW({}, y) + 4 * (x0)); ", q[comps[0]], q[comps[1]], q[comps[2]],
                       q[comps[3]], p);
    else
      return lanes;
  }
  return s;
}

// The ordered-dither thresholds in (0, 1), row-major [y % 16][x % 16], as an initialiser list:
// bits of x ^ y and y interleaved, least significant first (a 16x16 Bayer matrix). The kernels
// read them from a table: computing them took a quarter of a dithered pass on CPUs.
std::string bayer16_table() {
  std::string out = "{";
  for (unsigned y = 0; y < 16; ++y)
    for (unsigned x = 0; x < 16; ++x) {
      const unsigned a = x ^ y;
      unsigned v = 0;
      for (unsigned k = 0; k < 4; ++k) v = (v << 2) | (((a >> k) & 1u) << 1) | ((y >> k) & 1u);
      out += fmt::format("{}{}.5f / 256.0f", x + y ? ", " : "", v);
    }
  return out + "}";
}

// The kernel's vector form of the blocks that do not repeat the pattern (at the plane's edges):
// each such block loads 32 columns from a column l inside the plane (the table folds the edges
// in) and weights them by a dense 32 x 16 matrix, zeros off each lane's taps. The table, in
// rows of 16 floats: first each block's entry (the row it starts at; -1: none), then per entry
// the matrix and l. Planes under 32 columns keep the scalar form (no table). False where a
// block's taps do not fit.
bool edge_table(VectorPlan& v, const ResampleTable& t, int width, int src_columns) {
  if (src_columns < 32) return true;
  const int taps = t.stride, blocks = static_cast<int>(v.fast.size());
  constexpr int kRows = 33;
  std::vector<float> table((blocks + 15) / 16 * 16, -1.0f);
  for (int b = 0; b < blocks; ++b) {
    if (v.fast[b]) continue;
    const int x0 = 16 * b, end = std::min(width, x0 + 16);
    const int l = std::min(*std::min_element(t.offsets.begin() + x0, t.offsets.begin() + end), src_columns - 32);
    table[b] = static_cast<float>(table.size() / 16);
    table.resize(table.size() + kRows * 16, 0.0f);
    float* e = table.data() + table.size() - kRows * 16;
    for (int x = x0; x < end; ++x) {
      if (t.offsets[x] - l + taps > 32) return false;
      for (int k = 0; k < taps; ++k)
        e[(t.offsets[x] - l + k) * 16 + x - x0] = t.weights[static_cast<size_t>(x) * taps + k];
    }
    e[32 * 16] = static_cast<float>(l);
  }
  v.edge = std::move(table);
  return true;
}

// Which 16-pixel blocks of a row may take the vector code, and with what horizontal pattern.

// Direct reads: every whole block. Resampling 2x: the blocks whose table rows repeat the
// interior pattern (even and odd outputs) and whose 16 loaded columns lie inside the plane.
std::optional<VectorPlan> plan_vectors(int width, const ResampleTable* t, int src_columns) {
  VectorPlan v;
  const int blocks = (width + 15) / 16;
  v.fast.assign(blocks, 0);
  if (!t) {
    for (int b = 0; b < blocks; ++b) v.fast[b] = 16 * b + 16 <= width;
    return v;
  }
  if (width < 48) return std::nullopt;
  // The kernel's edge blocks hold the block's columns, at most 15 + taps of them.
  for (int x0 = 0; x0 < width; x0 += 16) {
    const auto [lo, hi] = std::minmax_element(t->offsets.begin() + x0, t->offsets.begin() + std::min(width, x0 + 16));
    if (*hi - *lo > 15) return std::nullopt;
  }
  const int mid = 16 * (blocks / 2), taps = t->stride;
  // Interpolating filters give even outputs one tap, which may start after the odd outputs' first.
  const int first = std::min(t->offsets[mid], t->offsets[mid + 1]);
  v.even_shift = t->offsets[mid] - first, v.odd_shift = t->offsets[mid + 1] - first;
  if (taps + std::max(v.even_shift, v.odd_shift) > 9) return std::nullopt;
  const auto row = [&](int x) { return t->weights.begin() + static_cast<size_t>(x) * taps; };
  const std::vector<float> even(row(mid), row(mid) + taps), odd(row(mid + 1), row(mid + 1) + taps);
  for (int k = 0; k < taps; ++k)
    for (int i = 0; i < 8; ++i) v.pattern.insert(v.pattern.end(), {even[k], odd[k]});
  for (int b = 0; b < blocks; ++b) {
    const int x0 = 16 * b, base = t->offsets[x0] - v.even_shift;
    bool ok = x0 + 16 <= width && base >= 0 && base + 16 <= src_columns;
    for (int k = 0; ok && k < 8; ++k)
      ok = t->offsets[x0 + 2 * k] == base + k + v.even_shift && t->offsets[x0 + 2 * k + 1] == base + k + v.odd_shift &&
           std::equal(row(x0 + 2 * k), row(x0 + 2 * k) + taps, even.begin()) &&
           std::equal(row(x0 + 2 * k + 1), row(x0 + 2 * k + 1) + taps, odd.begin());
    v.fast[b] = ok;
  }
  if (!edge_table(v, *t, width, src_columns)) return std::nullopt;
  return v;
}

}  // namespace

void validate_colorspace_params(const clvf_colorspace_params& p) {
  check_version(kOp, p.version);
  check_size(kOp, "width", p.width);
  check_size(kOp, "height", p.height);
  const PixelFormat& src = check_any_format(kOp, "source format", raw(p.src_format));
  const PixelFormat& dst = check_any_format(kOp, "destination format", raw(p.dst_format));
  check_coding(src, raw(p.src_matrix), raw(p.src_range), "source");
  check_coding(dst, raw(p.dst_matrix), raw(p.dst_range), "destination");
  check_chroma_location(kOp, raw(p.chroma_location));
  validate_resample_filter(kOp, raw(p.chroma_filter), p.param_b, p.param_c, p.taps);
  const int dither = raw(p.dither);
  if (dither != CLVF_DITHER_AUTO && dither != CLVF_DITHER_NONE && dither != CLVF_DITHER_ORDERED)
    invalid(fmt::format("{}: dither {} is not known; allowed: auto, none, ordered", kOp, dither));
  check_storages(kOp, raw(p.src_storage), raw(p.dst_storage));
}

Colorspace::Colorspace(std::shared_ptr<Device> device, const clvf_colorspace_params& params,
                       std::vector<FloatPlane> float_source)
    : device_(std::move(device)), params_(params), float_source_(std::move(float_source)) {
  validate_colorspace_params(params_);
  src_format_ = find_pixel_format(params_.src_format);
  dst_format_ = find_pixel_format(params_.dst_format);
  const bool float_in = !float_source_.empty();
  if (float_in) params_.src_storage = CLVF_STORAGE_CL_BUFFER;  // float buffers, as the kernels see them
  check_image_support(kOp, *device_, params_.src_format, params_.src_storage);
  check_image_support(kOp, *device_, params_.dst_format, params_.dst_storage);
  affine_ = colour_affine({src_format_, params_.src_matrix, params_.src_range},
                          {dst_format_, params_.dst_matrix, params_.dst_range});
  dither_ = params_.dither == CLVF_DITHER_ORDERED ||
            (params_.dither == CLVF_DITHER_AUTO && dst_format_->depth < src_format_->depth);

  const int w = params_.width, h = params_.height, cw = (w + 1) / 2, ch = (h + 1) / 2;
  const ResampleFilter filter{params_.chroma_filter, params_.param_b, params_.param_c, params_.taps};
  const double sx = chroma_siting_x(params_.chroma_location), sy = chroma_siting_y(params_.chroma_location);
  const ResampleTable up_h = build_resample_table(filter, {cw, w, 1.0, 2, 1, sx, 0.0});
  const ResampleTable up_v = build_resample_table(filter, {ch, h, 1.0, 2, 1, sy, 0.0});
  const ResampleTable down_h = build_resample_table(filter, {w, cw, 1.0, 1, 2, 0.0, sx});
  const ResampleTable down_v = build_resample_table(filter, {h, ch, 1.0, 1, 2, 0.0, sy});

  const bool src_sub = src_format_->subsampled(), dst_sub = dst_format_->subsampled();
  const auto luma_need = dst_sub ? needed(affine_, {0}) : needed(affine_, {0, 1, 2});
  const bool luma_up = src_sub && (luma_need[1] || luma_need[2]);
  const bool chroma_down = dst_sub && !src_sub;
  if (dst_sub && src_sub && needed(affine_, {1, 2})[0])
    throw Error(CLVF_ERROR_INTERNAL, "colorspace: 4:2:0 chroma depends on luma");

  cl_float16 m{};
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 4; ++j) m.s[4 * k + j] = static_cast<float>(affine_[k][j]);
  no_table_ = cl::Buffer(device_->context(), CL_MEM_READ_ONLY, 16);
  // CPU devices take 16 pixels per work-item with vector loads (they do not vectorise gathers).
  const bool vector_device = (device_->device().getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU) &&
                             kernel_storage(*device_, params_.src_storage) != CLVF_STORAGE_CL_IMAGE;
  const auto add_pass = [&](bool luma, bool resample, int gw, int gh, const ResampleTable& th, const ResampleTable& tv) {
    Pass pass;
    std::optional<VectorPlan> vec;
    if (vector_device && !(resample && !luma)) vec = plan_vectors(gw, resample ? &th : nullptr, resample ? cw : gw);
    // Vector luma of a 4:2:0 source: groups of rows that load their shared chroma rows once.
    BlockTable groups;
    int group = 1;
    for (const int g : {kLumaRowGroup, 2}) {
      if (!vec || !luma || !resample) break;
      if ((groups = block_table(tv, ch, g, 1, g / 2 + tv.taps + 1, 1)).span) {
        group = g;
        break;
      }
    }
    const char* kernel = luma ? "colour_luma" : "colour_chroma";
    pass.kernel = device_->kernel(variant_source(luma, resample, vec ? &*vec : nullptr, th, tv, group, groups.span),
                                  "-cl-std=CL1.2", kernel);
    pass.range = vec ? cl::NDRange((gw + 15) / 16, (gh + group - 1) / group) : cl::NDRange(gw, gh);
    const auto& ctx = device_->context();
    // Each table made once: assigning over a buffer releases it, and a release the fault tests
    // fail must not leave a handle that is released again.
    if (resample) pass.h = upload_table(ctx, th);
    if (group > 1)
      pass.v = {read_only_copy(ctx, groups.bases), read_only_copy(ctx, groups.matrix)};
    else if (resample)
      pass.v = upload_table(ctx, tv);
    pass.kernel.set("m", m);
    pass.kernel.set("hoff", resample ? pass.h.offsets : no_table_);
    pass.kernel.set("hw", resample ? pass.h.weights : no_table_);
    pass.kernel.set("voff", resample ? pass.v.offsets : no_table_);
    pass.kernel.set("vw", resample ? pass.v.weights : no_table_);
    pass.kernel.set("width", gw);
    pass.kernel.set("height", gh);
    if (vec) {
      pass.fast = read_only_copy(ctx, vec->fast);
      if (!vec->pattern.empty()) pass.pattern = read_only_copy(ctx, vec->pattern);
    }
    pass.kernel.set("fast", vec ? pass.fast : no_table_);
    pass.kernel.set("pw", vec && !vec->pattern.empty() ? pass.pattern : no_table_);
    if (vec && !vec->edge.empty()) pass.edge = read_only_copy(ctx, vec->edge);
    pass.kernel.set("ew", vec && !vec->edge.empty() ? pass.edge : no_table_);
    pass.name = vec ? fmt::format("{} (16 per item)", kernel) : std::string(kernel);
    passes_.push_back(std::move(pass));
  };
  add_pass(true, luma_up, w, h, up_h, up_v);
  if (dst_sub) add_pass(false, chroma_down, cw, ch, down_h, down_v);

  const int slots = FramePipeline::kDepth;
  if (!float_in)
    src_.emplace(*device_, params_.src_storage, plane_shapes(planes_of(params_.src_format, w, h)), "source", false,
                 slots);
  dst_.emplace(*device_, params_.dst_storage, plane_shapes(planes_of(params_.dst_format, w, h)), "destination", true,
               slots);
}

std::string Colorspace::variant_source(bool luma, bool resample, const VectorPlan* vec, const ResampleTable& th,
                                       const ResampleTable& tv, int row_group, int group_span) const {
  const PixelFormat& in = *src_format_;
  const PixelFormat& out = *dst_format_;
  const bool in_image = kernel_storage(*device_, params_.src_storage) == CLVF_STORAGE_CL_IMAGE;
  const bool out_image = kernel_storage(*device_, params_.dst_storage) == CLVF_STORAGE_CL_IMAGE;
  std::string d;
  const auto define = [&](const std::string& name, const auto& value) { d += fmt::format("#define {} {}\n", name, value); };
  define("IN_IMAGE", int(in_image));
  define("IN_FLOAT", int(!float_source_.empty()));
  define("OUT_IMAGE", int(out_image));
  define("IN_BYTES", in.bytes);
  define("OUT_BYTES", out.bytes);
  define("IN_SHIFT", in.shift);
  define("OUT_SHIFT", out.shift);
  define("OUT_MAX", out.max_value());
  define("ALPHA", fmt::format("{}.0f", out.max_value()));
  define("DITHER", int(dither_));
  if (dither_) define("BAYER16_TABLE", bayer16_table());
  define("VEC", int(vec != nullptr));
  define("EVEN_SHIFT", vec ? vec->even_shift : 0);
  define("EDGE_VEC", int(vec && !vec->edge.empty()));
  define("ODD_SHIFT", vec ? vec->odd_shift : 0);
  const bool alpha = in.components[3].plane >= 0 && out.components[3].plane >= 0;
  for (int k = 0; k < (alpha ? 4 : 3); ++k) {
    const Component& c = in.components[k];
    const int channels = in.planes[c.plane].channels;
    if (in_image) {
      define(fmt::format("READ{}(x, y)", k), fmt::format("read_image_channel(in{}, (x), (y), {})", c.plane, in.rgb ? k : c.channel));
      continue;
    }
    define(fmt::format("READ{}(x, y)", k),
           fmt::format("read_buffer(in{0}, in{0}_offset, in{0}_pitch, (x) * {1} + {2}, (y))", c.plane, channels, c.channel));
    define(fmt::format("LOAD16_{}(x, y)", k),
           fmt::format("load16(in{0}, in{0}_offset, in{0}_pitch, (x), (y), {1}, {2})", c.plane, channels, c.channel));
  }
  const bool dst_sub = out.subsampled();
  const auto luma_need = dst_sub ? needed(affine_, {0}) : needed(affine_, {0, 1, 2});
  const auto chroma_need = needed(affine_, {1, 2});
  for (int j = 0; j < 3; ++j) {
    define(fmt::format("LUMA_NEED{}", j), int(luma_need[j]));
    define(fmt::format("CHROMA_NEED{}", j), int(chroma_need[j]));
  }
  define("LUMA_UP", int(luma && resample));
  define("LUMA_Y_ONLY", int(dst_sub));
  define("CHROMA_DOWN", int(!luma && resample));
  define("TAPS_H", resample ? th.stride : 1);
  define("TAPS_V", resample ? tv.stride : 1);
  define("ROW_GROUP", row_group);
  define("SPAN_V", group_span);
  define("STORE_LUMA(x, y, q)", store_statements(out, out_image, 1));
  define("STORE_CHROMA(x, y, q)", dst_sub ? store_statements(out, out_image, 2) : std::string());
  define("STORE_LUMA16(x0, y, q0, q1, q2, qa)", store16_statements(out, out_image, 1));
  define("STORE_CHROMA16(x0, y, q1, q2)", dst_sub ? store16_statements(out, out_image, 2) : std::string());
  return d + std::string(kernels::source("vstore.h")) + std::string(kernels::source("colour.cl"));
}

void Colorspace::process(const clvf_frame& src, const clvf_frame& dst) {
  submit(&src, dst, {});
  complete();
}

void Colorspace::complete() { pipeline_.complete(&*dst_, profile_); }

void Colorspace::enqueue_pass(size_t i, const cl::CommandQueue& q, const clvf_frame& src, const clvf_frame& dst) {
  const size_t src_planes = src_format_->planes.size(), dst_planes = dst_format_->planes.size();
  Pass& pass = passes_[i];
  // The kernels take three planes in and three out (a format with fewer passes its last again).
  static constexpr std::string_view kIn[3] = {"in0", "in1", "in2"}, kOut[3] = {"out0", "out1", "out2"};
  for (size_t p = 0; p < 3; ++p) {
    const size_t plane = std::min(p, src_planes - 1);
    if (src_) {
      src_->set_args(pass.kernel, kIn[p], src, plane);
      continue;
    }
    pass.kernel.set(kIn[p], float_source_[plane].buffer);
    pass.kernel.set(kIn[p], "_offset", 0);
    pass.kernel.set(kIn[p], "_pitch", float_source_[plane].pitch);
  }
  for (size_t p = 0; p < 3; ++p) dst_->set_args(pass.kernel, kOut[p], dst, std::min(p, dst_planes - 1));
  q.enqueueNDRangeKernel(pass.kernel.get(), cl::NullRange, pass.range, pass.local, nullptr,
                         profile_.track(device_->profiling(), pass.name));
}

bool Colorspace::submit(const clvf_frame* src, const clvf_frame& dst, const std::vector<cl::Event>& wait) {
  if (!src) return false;
  pipeline_.submit(*device_, profile_, src_ ? &*src_ : nullptr, &*dst_, *src, dst, passes_.size(),
                   [&](size_t i, const cl::CommandQueue& q) { enqueue_pass(i, q, *src, dst); }, &wait);
  return true;
}

cl::Event Colorspace::enqueue(const clvf_frame& src, const clvf_frame& dst, const std::vector<cl::Event>& wait) {
  check_enqueue_storages(src_ ? params_.src_storage : CLVF_STORAGE_CL_BUFFER, params_.dst_storage,
                         float_source_.empty() ? "clvf_colorspace_enqueue" : "clvf_scale_enqueue");
  return pipeline_.enqueue(*device_, profile_, src_ ? &*src_ : nullptr, &*dst_, src, dst, passes_.size(),
                           [&](size_t i, const cl::CommandQueue& q) { enqueue_pass(i, q, src, dst); }, wait);
}

}  // namespace clvf::detail
