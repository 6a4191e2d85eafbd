// Colour conversion: each output sample is an affine map (matrix m, rows 0-2 as m.s0123,
// m.s4567, m.s89ab) of the source components at its position, then rounded or dithered.
// colour_luma runs once per pixel of the luma grid and writes every output plane on it;
// colour_chroma once per sample of a 4:2:0 output's chroma grid. Source components that sit on
// another grid are resampled through host-made tables (first index + TAPS weights per output
// row and column, edges folded in).
//
// The host prepends the definitions of one variant:
//   IN_IMAGE, OUT_IMAGE      1: planes are image2d_t; 0: buffers (pointer, byte offset, pitch)
//   IN_FLOAT                 1: source planes are unrounded floats (a scale's output; offset
//                            and pitch in floats)
//   IN_BYTES, OUT_BYTES      1 or 2 (16-bit little endian) bytes per stored sample
//   IN_SHIFT, OUT_SHIFT      value = stored >> SHIFT (P010: 6)
//   OUT_MAX                  the largest output value
//   DITHER                   1: ordered (Bayer 16x16) thresholds, 0: round to nearest
//   BAYER16_TABLE            with DITHER: the 256 thresholds' initialiser
//   READ0..READ3(x, y)       source component 0-3 (Y U V A or R G B A) at a pixel of its plane
//   ALPHA                    the alpha written when the source has none (OUT_MAX)
//   LUMA_NEED0..2            colour_luma uses source component k
//   LUMA_UP                  components 1, 2 come from a subsampled plane (resampled with
//                            TAPS_H x TAPS_V table entries)
//   LUMA_Y_ONLY              colour_luma stores output component 0 only (4:2:0 outputs)
//   ROW_GROUP, SPAN_V        G > 1 (VEC, LUMA_UP): a work-item converts luma rows
//                            Gg .. Gg + G - 1, which share most of their chroma rows: voff[g] is
//                            the first of the SPAN_V chroma rows they read, vw[(g * SPAN_V + s) *
//                            G + r] the weight of row voff[g] + s for luma row Gg + r (0 off its
//                            taps); 1: a row per work-item (voff, vw per row, TAPS_V)
//   CHROMA_NEED0..2, CHROMA_DOWN  the same for colour_chroma (resampled from full-size planes)
//   STORE_LUMA(x, y, q), STORE_CHROMA(x, y, q)  write a float4 of quantised output values
//   VEC                      1: a work-item converts 16 pixels of a row, with vector loads and
//                            stores where its block allows (CPU devices, which do not vectorise
//                            gathers across work-items); 0: one pixel per work-item
//   LOAD16_0..2(x, y), STORE_LUMA16(x0, y, q0, q1, q2, qa), STORE_CHROMA16(x0, y, q1, q2)
//                            the vector forms (VEC only)
//   EDGE_VEC                 1 (VEC, LUMA_UP): the host made the edge table ew, and blocks at
//                            a plane edge take vector code too (edge_entry, edge16)

#ifndef IN_FLOAT
#define IN_FLOAT 0
#endif
#if IN_IMAGE
#define IN_PLANE(n) __read_only image2d_t in##n
#elif IN_FLOAT
#define IN_PLANE(n) __global const float *in##n, int in##n##_offset, int in##n##_pitch
#else
#define IN_PLANE(n) __global const uchar *in##n, int in##n##_offset, int in##n##_pitch
#endif
#if OUT_IMAGE
#define OUT_PLANE(n) __write_only image2d_t out##n
#else
#define OUT_PLANE(n) __global uchar *out##n, int out##n##_offset, int out##n##_pitch
#endif

__constant sampler_t clvf_nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

// ---- reading ----
#if IN_IMAGE
#define IN_NORM (IN_BYTES == 1 ? 255.0f : 65535.0f)
float read_image_channel(__read_only image2d_t img, int x, int y, int channel) {
  const float4 v = read_imagef(img, clvf_nearest, (int2)(x, y));
  const float c = channel == 0 ? v.x : channel == 1 ? v.y : channel == 2 ? v.z : v.w;
  return (float)((int)rint(c * IN_NORM) >> IN_SHIFT);
}
#elif IN_FLOAT
float read_buffer(__global const float *p, int off, int pitch, int lane, int y) {
  return p[off + (size_t)y * pitch + lane];
}
#else
// lane: sample index along the row (x * channels + channel).
float read_buffer(__global const uchar *p, int off, int pitch, int lane, int y) {
  __global const uchar *row = p + off + (size_t)y * pitch;
#if IN_BYTES == 1
  return (float)row[lane];
#else
  return (float)(((int)row[2 * lane] | ((int)row[2 * lane + 1] << 8)) >> IN_SHIFT);
#endif
}
#endif

// Source component k resampled at table entry (tx, ty): sum over TAPS_V rows and TAPS_H columns.
#define RESAMPLE(READ, hoff, hw, voff, vw, tx, ty, out)                    \
  do {                                                                    \
    const int x0 = hoff[tx], y0 = voff[ty];                               \
    float acc = 0.0f;                                                     \
    for (int j = 0; j < TAPS_V; ++j) {                                    \
      float row = 0.0f;                                                   \
      for (int i = 0; i < TAPS_H; ++i) row += hw[(tx) * TAPS_H + i] * READ(x0 + i, y0 + j); \
      acc += vw[(ty) * TAPS_V + j] * row;                                 \
    }                                                                     \
    out = acc;                                                            \
  } while (0)

// ---- writing ----
#if DITHER
// Bayer 16x16 thresholds in (0, 1), [y % 16][x % 16] (made by the host: colorspace.cpp).
__constant float bayer16_table[256] = BAYER16_TABLE;
float bayer16(int x, int y) { return bayer16_table[(y & 15) * 16 + (x & 15)]; }
#endif

float4 quantise(float4 v, int x, int y) {
#if DITHER
  const float d = bayer16(x, y);
#else
  const float d = 0.5f;
#endif
  return clamp(floor(v + d), 0.0f, (float)OUT_MAX);
}

#if OUT_IMAGE
#define OUT_NORM (OUT_BYTES == 1 ? (1.0f / 255.0f) : ((float)(1 << OUT_SHIFT) / 65535.0f))
#define STORE_IMAGE(img, x, y, v) write_imagef(img, (int2)((x), (y)), (v) * OUT_NORM)
#else
void store_sample(__global uchar *row, int lane, float v) {
#if OUT_BYTES == 1
  row[lane] = (uchar)v;
#else
  const uint s = (uint)v << OUT_SHIFT;
  row[2 * lane] = (uchar)s;
  row[2 * lane + 1] = (uchar)(s >> 8);
#endif
}
#define ROW(n, y) (out##n + out##n##_offset + (size_t)(y) * out##n##_pitch)
#define STORE1(n, x, y, v) store_sample(ROW(n, y), (x), (v))
#define STORE2(n, x, y, v)              \
  do {                                  \
    __global uchar *r_ = ROW(n, y);     \
    store_sample(r_, 2 * (x), (v).s0);   \
    store_sample(r_, 2 * (x) + 1, (v).s1); \
  } while (0)
#define STORE4(n, x, y, v)              \
  do {                                  \
    __global uchar *r_ = ROW(n, y);     \
    store_sample(r_, 4 * (x), (v).s0);   \
    store_sample(r_, 4 * (x) + 1, (v).s1); \
    store_sample(r_, 4 * (x) + 2, (v).s2); \
    store_sample(r_, 4 * (x) + 3, (v).s3); \
  } while (0)
#endif

float4 apply(float16 m, float c0, float c1, float c2, float alpha) {
  return (float4)(m.s0 * c0 + m.s1 * c1 + m.s2 * c2 + m.s3,
                  m.s4 * c0 + m.s5 * c1 + m.s6 * c2 + m.s7,
                  m.s8 * c0 + m.s9 * c1 + m.sa * c2 + m.sb, alpha);
}

// ---- 16 pixels at a time (VEC) ----
#if VEC && IN_FLOAT
float16 load16(__global const float *p, int off, int pitch, int x, int y, int channels, int c) {
  __global const float *row = p + off + (size_t)y * pitch + (size_t)x * channels;
  const float16 a = vload16(0, row);
  if (channels == 1) return a;
  const float16 b = vload16(0, row + 16);
  return c == 0 ? (float16)(a.even, b.even) : (float16)(a.odd, b.odd);
}
#elif VEC && !IN_IMAGE
// Samples x .. x + 15 of one channel of a row holding `channels` interleaved channels.
float16 load16(__global const uchar *p, int off, int pitch, int x, int y, int channels, int c) {
  __global const uchar *row = p + off + (size_t)y * pitch + (size_t)x * channels * IN_BYTES;
// Converted to float before the channels are picked out: float shuffles are single instructions
// on CPUs whose byte shuffles are not (AVX-512 without VBMI).
#if IN_BYTES == 1
  if (channels == 1) return convert_float16(vload16(0, row));
  const float16 a = convert_float16(vload16(0, row)), b = convert_float16(vload16(0, row + 16));
  if (channels == 2) return c == 0 ? (float16)(a.even, b.even) : (float16)(a.odd, b.odd);
  const float16 d = convert_float16(vload16(0, row + 32)), e = convert_float16(vload16(0, row + 48));
  return c == 0   ? (float16)(a.s048c, b.s048c, d.s048c, e.s048c)
         : c == 1 ? (float16)(a.s159d, b.s159d, d.s159d, e.s159d)
         : c == 2 ? (float16)(a.s26ae, b.s26ae, d.s26ae, e.s26ae)
                  : (float16)(a.s37bf, b.s37bf, d.s37bf, e.s37bf);
#else  // 16-bit samples: planes are 2-byte aligned (checked when a frame is bound)
  __global const ushort *r = (__global const ushort *)row;
  const ushort16 a = vload16(0, r);
  if (channels == 1) return convert_float16(a >> (ushort)IN_SHIFT);
  const float16 fa = convert_float16(a >> (ushort)IN_SHIFT), fb = convert_float16(vload16(0, r + 16) >> (ushort)IN_SHIFT);
  return c == 0 ? (float16)(fa.even, fb.even) : (float16)(fa.odd, fb.odd);
#endif
}
#endif

#if VEC
// 16 columns (vertically filtered, from the block's first table column) to the 16 luma samples
// of the block: even and odd outputs each have their TAPS_H weights (pw), starting EVEN_SHIFT and
// ODD_SHIFT columns after the block's first loaded column. Tap k of all 16 outputs at once: one
// lane permutation of the columns (its mask is constant once the tap loop is unrolled) times
// the tap's even and odd weights, interleaved (pw: TAPS_H vectors of 16).
float16 upsample16(float16 v, __global const float *pw) {
  const uint16 lane = (uint16)(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);
  const uint16 shift = (uint16)(EVEN_SHIFT, ODD_SHIFT, EVEN_SHIFT, ODD_SHIFT, EVEN_SHIFT, ODD_SHIFT, EVEN_SHIFT,
                                ODD_SHIFT, EVEN_SHIFT, ODD_SHIFT, EVEN_SHIFT, ODD_SHIFT, EVEN_SHIFT, ODD_SHIFT,
                                EVEN_SHIFT, ODD_SHIFT);
  float16 acc = 0.0f;
  _Pragma("unroll") for (uint k = 0; k < TAPS_H; ++k) acc += vload16(k, pw) * shuffle(v, lane + shift + k);
  return acc;
}

// The thresholds of pixels 16k .. 16k + 15 of row y.
float16 thresholds16(int y) {
#if DITHER
  return vload16(y & 15, bayer16_table);
#else
  return 0.5f;
#endif
}

// floor(v + t) clamped: truncation equals floor once clamped to 0 (floor() is a call on PoCL).
#define Q16(v, t) convert_float16(convert_int16(clamp((v) + (t), 0.0f, (float)OUT_MAX)))

#if !OUT_IMAGE
// Two channels of 16 pixels, interleaved into 32 bytes.
void store16_pairs(__global uchar *row, float16 a, float16 b) {
#if OUT_BYTES == 1
  const uchar16 u = convert_uchar16(a), v = convert_uchar16(b);
  vstore16_u8((uchar16)(u.s0, v.s0, u.s1, v.s1, u.s2, v.s2, u.s3, v.s3, u.s4, v.s4, u.s5, v.s5, u.s6, v.s6, u.s7, v.s7),
              row);
  vstore16_u8((uchar16)(u.s8, v.s8, u.s9, v.s9, u.sa, v.sa, u.sb, v.sb, u.sc, v.sc, u.sd, v.sd, u.se, v.se, u.sf, v.sf),
              row + 16);
#else
  float t[2][16];
  vstore16(a, 0, t[0]);
  vstore16(b, 0, t[1]);
  for (int k = 0; k < 32; ++k) store_sample(row, k, t[k % 2][k / 2]);
#endif
}
#endif

// Any plane layout: lane by lane through the scalar stores.
#define STORE_LANES(STORE, x0, y, q0, q1, q2, qa)                                                  \
  do {                                                                                          \
    float a_[4][16];                                                                            \
    vstore16(q0, 0, a_[0]);                                                                     \
    vstore16(q1, 0, a_[1]);                                                                     \
    vstore16(q2, 0, a_[2]);                                                                     \
    vstore16(qa, 0, a_[3]);                                                                     \
    for (int k_ = 0; k_ < 16; ++k_) {                                                           \
      const float4 q = (float4)(a_[0][k_], a_[1][k_], a_[2][k_], a_[3][k_]);                    \
      STORE((x0) + k_, y, q);                                                                   \
    }                                                                                           \
  } while (0)

float16 apply16(float4 r, float16 c0, float16 c1, float16 c2) { return r.x * c0 + r.y * c1 + r.z * c2 + r.w; }
#endif

#ifdef READ3
#define ALPHA_AT(x, y) READ3(x, y)
#else
#define ALPHA_AT(x, y) ALPHA
#endif

#define LUMA_PIXEL(x, y)                                      \
  do {                                                        \
    float c0 = 0.0f, c1 = 0.0f, c2 = 0.0f;                    \
    if (LUMA_NEED0) c0 = READ0(x, y);                         \
    if (LUMA_UP) {                                            \
      if (LUMA_NEED1) RESAMPLE(READ1, hoff, hw, voff, vw, x, y, c1); \
      if (LUMA_NEED2) RESAMPLE(READ2, hoff, hw, voff, vw, x, y, c2); \
    } else {                                                  \
      if (LUMA_NEED1) c1 = READ1(x, y);                       \
      if (LUMA_NEED2) c2 = READ2(x, y);                       \
    }                                                         \
    const float4 q = quantise(apply(m, c0, c1, c2, ALPHA_AT(x, y)), x, y); \
    STORE_LUMA(x, y, q);                                      \
  } while (0)

#define CHROMA_PIXEL(x, y)                                    \
  do {                                                        \
    float c0 = 0.0f, c1 = 0.0f, c2 = 0.0f;                    \
    if (CHROMA_DOWN) {                                        \
      if (CHROMA_NEED0) RESAMPLE(READ0, hoff, hw, voff, vw, x, y, c0); \
      if (CHROMA_NEED1) RESAMPLE(READ1, hoff, hw, voff, vw, x, y, c1); \
      if (CHROMA_NEED2) RESAMPLE(READ2, hoff, hw, voff, vw, x, y, c2); \
    } else {                                                  \
      if (CHROMA_NEED1) c1 = READ1(x, y);                     \
      if (CHROMA_NEED2) c2 = READ2(x, y);                     \
    }                                                         \
    const float4 q = quantise(apply(m, c0, c1, c2, 0.0f), x, y); \
    STORE_CHROMA(x, y, q);                                    \
  } while (0)

// With VEC, `fast` marks the 16-pixel blocks the vector code may take: inside the plane and, when
// chroma is resampled, where the tables follow their 2-periodic interior pattern (pw, EVEN_SHIFT,
// ODD_SHIFT).
#define COLOUR_ARGS                                                                              \
  IN_PLANE(0), IN_PLANE(1), IN_PLANE(2), OUT_PLANE(0), OUT_PLANE(1), OUT_PLANE(2), float16 m,    \
      __global const int *hoff, __global const float *hw, __global const int *voff,             \
      __global const float *vw, int width, int height, __global const uchar *fast, __global const float *pw, \
      __global const float *ew

// The vertical table of luma row y: its first chroma row, tap count and weights.
#ifndef ROW_GROUP
#define ROW_GROUP 1
#endif
#if ROW_GROUP > 1
#define V_FIRST(y) voff[(y) / ROW_GROUP]
#define V_TAPS SPAN_V
#define V_WEIGHT(y, j) vw[(((y) / ROW_GROUP) * SPAN_V + (j)) * ROW_GROUP + ((y) % ROW_GROUP)]
#else
#define V_FIRST(y) voff[y]
#define V_TAPS TAPS_V
#define V_WEIGHT(y, j) vw[(y) * TAPS_V + (j)]
#endif

#if VEC
// Output row y of a block from its converted chroma terms (mix: m1 * Cb + m2 * Cr, resampled;
// else c1, c2 resampled): 16 pixels at x0 where the block is whole, else the pixels up to `last`.
#define Y_ROW_OUT(x0, last, y, mix)                                                             \
  do {                                                                                          \
    const float16 mix_ = (mix);                                                                 \
    if ((last) == (x0) + 15) {                                                                  \
      const float16 c0 = LUMA_NEED0 ? LOAD16_0(x0, y) : 0.0f;                                   \
      const float16 q0 = Q16(m.s0 * c0 + mix_ + m.s3, thresholds16(y));                         \
      STORE_LUMA16(x0, y, q0, q0, q0, (float16)(ALPHA));                                        \
    } else {                                                                                    \
      float c_[16];                                                                             \
      vstore16(mix_, 0, c_);                                                                    \
      for (int x = (x0); x <= (last); ++x) {                                                    \
        const float v = m.s0 * (LUMA_NEED0 ? READ0(x, y) : 0.0f) + c_[x - (x0)] + m.s3;         \
        STORE_LUMA(x, y, quantise((float4)(v, v, v, ALPHA), x, y));                             \
      }                                                                                         \
    }                                                                                           \
  } while (0)
#ifdef READ3
#define ALPHA16(x0, y) LOAD16_3(x0, y)
#else
#define ALPHA16(x0, y) ((float16)(ALPHA))
#endif
#define ROW_OUT(x0, last, y, c1, c2)                                                            \
  do {                                                                                          \
    const float16 c1_ = (c1), c2_ = (c2);                                                       \
    if ((last) == (x0) + 15) {                                                                  \
      const float16 c0 = LUMA_NEED0 ? LOAD16_0(x0, y) : 0.0f, t = thresholds16(y);              \
      const float16 q0 = Q16(apply16(m.s0123, c0, c1_, c2_), t), q1 = Q16(apply16(m.s4567, c0, c1_, c2_), t), \
                    q2 = Q16(apply16(m.s89ab, c0, c1_, c2_), t);                                \
      STORE_LUMA16(x0, y, q0, q1, q2, ALPHA16(x0, y));                                          \
    } else {                                                                                    \
      float a_[16], b_[16];                                                                     \
      vstore16(c1_, 0, a_), vstore16(c2_, 0, b_);                                               \
      for (int x = (x0); x <= (last); ++x) {                                                    \
        const float c0 = LUMA_NEED0 ? READ0(x, y) : 0.0f;                                       \
        STORE_LUMA(x, y, quantise(apply(m, c0, a_[x - (x0)], b_[x - (x0)], ALPHA_AT(x, y)), x, y)); \
      }                                                                                         \
    }                                                                                           \
  } while (0)

// ew, in rows of 16 floats: each block's entry (the row it starts at), then the entries: 33 rows,
// the block's dense matrix (edge16), then its first loaded column l.
__global const float16 *edge_entry(__global const float *ew, int block) {
  return (__global const float16 *)ew + (int)ew[block];
}

// A block at a plane edge, resampled: its 32 loaded columns (lo, hi) times their 16 lanes'
// weights each (e: the block's dense 32 x 16 matrix, zeros off each lane's taps; a dynamic lane
// permutation per tap is no single instruction on CPUs).
float16 edge16(float16 lo, float16 hi, __global const float16 *e) {
  const float16 v[2] = {lo, hi};
  const float *lanes = (const float *)v;
  float16 acc = 0.0f;
  _Pragma("unroll") for (int c = 0; c < 32; ++c) acc += e[c] * lanes[c];
  return acc;
}
#endif

__kernel void colour_luma(COLOUR_ARGS) {
#if VEC
  const int block = get_global_id(0), x0 = 16 * block;
  const int y_first = ROW_GROUP * get_global_id(1), y_end = min(y_first + ROW_GROUP, height);
#if LUMA_UP
  // The group's chroma rows, each loaded once and weighted for each of its luma rows: 16 columns
  // where the block repeats the interior pattern (fast), else (a block at a plane edge, EDGE_VEC)
  // the 32 from the column l of its edge table entry (e). Without EDGE_VEC (planes under 32
  // chroma columns) edge blocks take the scalar form further down.
  const int y0 = V_FIRST(y_first), last = min(x0 + 16, width) - 1;
  // The group's weights: tap j of its row r at group_w[j * ROW_GROUP + r] (V_WEIGHT's layout,
  // y_first being a multiple of ROW_GROUP), addressed once (PoCL computed each index in the loop).
  __global const float *group_w = &V_WEIGHT(y_first, 0);
// acc[r] += luma row y_first + r's vertical taps of LOAD(x, chroma row), 16 columns from x.
#define VERTICAL16(acc, LOAD, x)                                                                \
  _Pragma("unroll") for (int j = 0; j < V_TAPS; ++j) {                                          \
    const float16 a_ = LOAD(x, y0 + j);                                                         \
    _Pragma("unroll") for (int r = 0; r < ROW_GROUP; ++r) acc[r] += group_w[j * ROW_GROUP + r] * a_; \
  }
#if LUMA_Y_ONLY
  // Only Y is stored: its two chroma terms are one linear combination, resampled once.
#define Y_TERMS16(x, y) \
  ((0.0f + (LUMA_NEED1 ? m.s1 * LOAD16_1(x, y) : 0.0f)) + (LUMA_NEED2 ? m.s2 * LOAD16_2(x, y) : 0.0f))
  float16 lo[ROW_GROUP], hi[ROW_GROUP];
  _Pragma("unroll") for (int r = 0; r < ROW_GROUP; ++r) lo[r] = hi[r] = 0.0f;
  if (fast[block]) {
    VERTICAL16(lo, Y_TERMS16, hoff[x0] - EVEN_SHIFT)
    _Pragma("unroll") for (int r = 0; r < ROW_GROUP && y_first + r < y_end; ++r)
      Y_ROW_OUT(x0, x0 + 15, y_first + r, upsample16(lo[r], pw));
    return;
  }
  if (EDGE_VEC) {
    __global const float16 *e = edge_entry(ew, block);
    const int l = (int)e[32].s0;
    VERTICAL16(lo, Y_TERMS16, l)
    VERTICAL16(hi, Y_TERMS16, l + 16)
    _Pragma("unroll") for (int r = 0; r < ROW_GROUP && y_first + r < y_end; ++r)
      Y_ROW_OUT(x0, last, y_first + r, edge16(lo[r], hi[r], e));
    return;
  }
#else
  float16 lo1[ROW_GROUP], hi1[ROW_GROUP], lo2[ROW_GROUP], hi2[ROW_GROUP];
  _Pragma("unroll") for (int r = 0; r < ROW_GROUP; ++r) lo1[r] = hi1[r] = lo2[r] = hi2[r] = 0.0f;
  if (fast[block]) {
    const int l = hoff[x0] - EVEN_SHIFT;
    if (LUMA_NEED1) VERTICAL16(lo1, LOAD16_1, l)
    if (LUMA_NEED2) VERTICAL16(lo2, LOAD16_2, l)
    _Pragma("unroll") for (int r = 0; r < ROW_GROUP && y_first + r < y_end; ++r)
      ROW_OUT(x0, x0 + 15, y_first + r, LUMA_NEED1 ? upsample16(lo1[r], pw) : 0.0f,
              LUMA_NEED2 ? upsample16(lo2[r], pw) : 0.0f);
    return;
  }
  if (EDGE_VEC) {
    __global const float16 *e = edge_entry(ew, block);
    const int l = (int)e[32].s0;
    if (LUMA_NEED1) {
      VERTICAL16(lo1, LOAD16_1, l)
      VERTICAL16(hi1, LOAD16_1, l + 16)
    }
    if (LUMA_NEED2) {
      VERTICAL16(lo2, LOAD16_2, l)
      VERTICAL16(hi2, LOAD16_2, l + 16)
    }
    _Pragma("unroll") for (int r = 0; r < ROW_GROUP && y_first + r < y_end; ++r)
      ROW_OUT(x0, last, y_first + r, LUMA_NEED1 ? edge16(lo1[r], hi1[r], e) : 0.0f,
              LUMA_NEED2 ? edge16(lo2[r], hi2[r], e) : 0.0f);
    return;
  }
#endif
#else
  if (fast[block]) {
    _Pragma("unroll") for (int r = 0; r < ROW_GROUP; ++r) {
      const int y = y_first + r;
      if (y >= y_end) break;
      const float16 c1 = LUMA_NEED1 ? LOAD16_1(x0, y) : 0.0f, c2 = LUMA_NEED2 ? LOAD16_2(x0, y) : 0.0f;
      ROW_OUT(x0, x0 + 15, y, c1, c2);
    }
    return;
  }
#endif
  for (int y = y_first; y < y_end; ++y) {
#if LUMA_UP
    // A block at the edge of a narrow plane: each of its source columns is filtered vertically
    // once, then each pixel's horizontal taps read them. The block's first offsets lie within 15
    // of one another (the host checks): it spans at most 15 + TAPS_H columns.
    const int last = min(x0 + 16, width) - 1, y0 = V_FIRST(y);
    int base = hoff[x0], end = base;
    for (int x = x0 + 1; x <= last; ++x) base = min(base, hoff[x]), end = max(end, hoff[x]);
    float col1[15 + TAPS_H], col2[15 + TAPS_H];
    for (int i = 0; i < end + TAPS_H - base; ++i) {
      float a = 0.0f, b = 0.0f;
      for (int j = 0; j < V_TAPS; ++j) {
        const float w = V_WEIGHT(y, j);
        if (LUMA_NEED1) a += w * READ1(base + i, y0 + j);
        if (LUMA_NEED2) b += w * READ2(base + i, y0 + j);
      }
      col1[i] = a, col2[i] = b;
    }
    for (int x = x0; x <= last; ++x) {
      const float c0 = LUMA_NEED0 ? READ0(x, y) : 0.0f;
      float c1 = 0.0f, c2 = 0.0f;
      for (int i = 0; i < TAPS_H; ++i) {
        const float w = hw[x * TAPS_H + i];
        c1 += w * col1[hoff[x] - base + i];
        c2 += w * col2[hoff[x] - base + i];
      }
      const float4 q = quantise(apply(m, c0, c1, c2, ALPHA_AT(x, y)), x, y);
      STORE_LUMA(x, y, q);
    }
#else
    for (int x = x0; x < min(x0 + 16, width); ++x) LUMA_PIXEL(x, y);
#endif
  }
#else
  LUMA_PIXEL((int)get_global_id(0), (int)get_global_id(1));
#endif
}

__kernel void colour_chroma(COLOUR_ARGS) {
#if VEC
  const int block = get_global_id(0), x0 = 16 * block, y = get_global_id(1);
  if (fast[block]) {
    const float16 c1 = CHROMA_NEED1 ? LOAD16_1(x0, y) : 0.0f, c2 = CHROMA_NEED2 ? LOAD16_2(x0, y) : 0.0f;
    const float16 t = thresholds16(y);
    const float16 q1 = Q16(apply16(m.s4567, 0.0f, c1, c2), t), q2 = Q16(apply16(m.s89ab, 0.0f, c1, c2), t);
    STORE_CHROMA16(x0, y, q1, q2);
    return;
  }
  for (int x = x0; x < min(x0 + 16, width); ++x) CHROMA_PIXEL(x, y);
#else
  CHROMA_PIXEL((int)get_global_id(0), (int)get_global_id(1));
#endif
}
