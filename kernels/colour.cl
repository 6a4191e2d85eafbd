// Colour conversion: each output sample is an affine map (matrix m, rows 0-2 as m.s0123,
// m.s4567, m.s89ab) of the source components at its position, then rounded or dithered.
// colour_luma runs once per pixel of the luma grid and writes every output plane on it;
// colour_chroma once per sample of a 4:2:0 output's chroma grid. Source components that sit on
// another grid are resampled through host-made tables (first index + TAPS weights per output
// row and column, edges folded in).
//
// The host prepends the definitions of one variant:
//   IN_IMAGE, OUT_IMAGE      1: planes are image2d_t; 0: buffers (pointer, byte offset, pitch)
//   IN_BYTES, OUT_BYTES      1 or 2 (16-bit little endian) bytes per stored sample
//   IN_SHIFT, OUT_SHIFT      value = stored >> SHIFT (P010: 6)
//   OUT_MAX                  the largest output value
//   DITHER                   1: ordered (Bayer 16x16) thresholds, 0: round to nearest
//   READ0..READ3(x, y)       source component 0-3 (Y U V A or R G B A) at a pixel of its plane
//   ALPHA                    the alpha written when the source has none (OUT_MAX)
//   LUMA_NEED0..2            colour_luma uses source component k
//   LUMA_UP                  components 1, 2 come from a subsampled plane (resampled with
//                            TAPS_H x TAPS_V table entries)
//   CHROMA_NEED0..2, CHROMA_DOWN  the same for colour_chroma (resampled from full-size planes)
//   STORE_LUMA(x, y, q), STORE_CHROMA(x, y, q)  write a float4 of quantised output values

#if IN_IMAGE
#define IN_PLANE(n) __read_only image2d_t in##n
#else
#define IN_PLANE(n) __global const uchar *in##n, int in##n##_off, int in##n##_pitch
#endif
#if OUT_IMAGE
#define OUT_PLANE(n) __write_only image2d_t out##n
#else
#define OUT_PLANE(n) __global uchar *out##n, int out##n##_off, int out##n##_pitch
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
// Bayer 16x16 threshold in (0, 1): bits of x^y and y interleaved, least significant first.
float bayer16(int x, int y) {
  const uint a = (uint)(x ^ y), b = (uint)y;
  uint v = 0;
  for (int k = 0; k < 4; ++k) v = (v << 2) | (((a >> k) & 1u) << 1) | ((b >> k) & 1u);
  return ((float)v + 0.5f) / 256.0f;
}

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
#define ROW(n, y) (out##n + out##n##_off + (size_t)(y) * out##n##_pitch)
#define STORE1(n, x, y, v) store_sample(ROW(n, y), (x), (v))
#define STORE2(n, x, y, v)              \
  do {                                  \
    __global uchar *r_ = ROW(n, y);     \
    store_sample(r_, 2 * (x), (v).x);   \
    store_sample(r_, 2 * (x) + 1, (v).y); \
  } while (0)
#define STORE4(n, x, y, v)              \
  do {                                  \
    __global uchar *r_ = ROW(n, y);     \
    store_sample(r_, 4 * (x), (v).x);   \
    store_sample(r_, 4 * (x) + 1, (v).y); \
    store_sample(r_, 4 * (x) + 2, (v).z); \
    store_sample(r_, 4 * (x) + 3, (v).w); \
  } while (0)
#endif

float4 apply(float16 m, float c0, float c1, float c2, float alpha) {
  return (float4)(m.s0 * c0 + m.s1 * c1 + m.s2 * c2 + m.s3,
                  m.s4 * c0 + m.s5 * c1 + m.s6 * c2 + m.s7,
                  m.s8 * c0 + m.s9 * c1 + m.sa * c2 + m.sb, alpha);
}

__kernel void colour_luma(IN_PLANE(0), IN_PLANE(1), IN_PLANE(2), OUT_PLANE(0), OUT_PLANE(1), OUT_PLANE(2),
                          float16 m, __global const int *hoff, __global const float *hw,
                          __global const int *voff, __global const float *vw) {
  const int x = get_global_id(0), y = get_global_id(1);
  float c0 = 0.0f, c1 = 0.0f, c2 = 0.0f;
#if LUMA_NEED0
  c0 = READ0(x, y);
#endif
#if LUMA_UP
#if LUMA_NEED1
  RESAMPLE(READ1, hoff, hw, voff, vw, x, y, c1);
#endif
#if LUMA_NEED2
  RESAMPLE(READ2, hoff, hw, voff, vw, x, y, c2);
#endif
#else
#if LUMA_NEED1
  c1 = READ1(x, y);
#endif
#if LUMA_NEED2
  c2 = READ2(x, y);
#endif
#endif
#ifdef READ3
  const float alpha = READ3(x, y);
#else
  const float alpha = ALPHA;
#endif
  const float4 q = quantise(apply(m, c0, c1, c2, alpha), x, y);
  STORE_LUMA(x, y, q);
}

__kernel void colour_chroma(IN_PLANE(0), IN_PLANE(1), IN_PLANE(2), OUT_PLANE(0), OUT_PLANE(1), OUT_PLANE(2),
                            float16 m, __global const int *hoff, __global const float *hw,
                            __global const int *voff, __global const float *vw) {
  const int x = get_global_id(0), y = get_global_id(1);
  float c0 = 0.0f, c1 = 0.0f, c2 = 0.0f;
#if CHROMA_DOWN
#if CHROMA_NEED0
  RESAMPLE(READ0, hoff, hw, voff, vw, x, y, c0);
#endif
#if CHROMA_NEED1
  RESAMPLE(READ1, hoff, hw, voff, vw, x, y, c1);
#endif
#if CHROMA_NEED2
  RESAMPLE(READ2, hoff, hw, voff, vw, x, y, c2);
#endif
#else
#if CHROMA_NEED1
  c1 = READ1(x, y);
#endif
#if CHROMA_NEED2
  c2 = READ2(x, y);
#endif
#endif
  const float4 q = quantise(apply(m, c0, c1, c2, 0.0f), x, y);
  STORE_CHROMA(x, y, q);
}
