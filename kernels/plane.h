// One way for kernels to reach a plane, whether it lives in a buffer (pointer + byte offset +
// byte pitch: PoCL has no CL_RG images) or in an image (what interop textures arrive as).
// Samples are handled as floats on their own scale (0..255, or 0..1023 for P010).
//
// Build options choose the variant:
//   CHANNELS   1 (Y, U, V planes) or 2 (NV12's and P010's interleaved UV plane)
//   SRC_IMAGE  1: the source plane is an image2d_t, 0: a buffer
//   DST_IMAGE  1: the destination plane is an image2d_t, 0: a buffer
//   DST_FLOAT  1: the destination is a float buffer (offset and pitch in floats), unrounded
//   SAMPLE_BYTES, SAMPLE_SHIFT, SAMPLE_MAX  1, 0, 255 (default) or 2, 6, 1023 (P010: 16-bit
//              little endian, the value in the top 10 bits)
//
// A source is read one "lane" at a time (i = x * CHANNELS + c along a row): scalar float code is
// what CPU compilers vectorise across work-items, and GPUs do not mind. A destination is
// written a pixel at a time (float or float2), since an image cannot be written per channel.

#ifndef SAMPLE_BYTES
#define SAMPLE_BYTES 1
#define SAMPLE_SHIFT 0
#define SAMPLE_MAX 255
#endif
#ifndef DST_FLOAT
#define DST_FLOAT 0
#endif

#if CHANNELS == 1
#define PIX_TO_F4(p) ((float4)((p), 0.0f, 0.0f, 1.0f))
#elif CHANNELS == 2
#define PIX_TO_F4(p) ((float4)((p), 0.0f, 1.0f))
#else
#error "CHANNELS must be 1 or 2"
#endif

// Round half to even for 0 <= v < 2^23: adding 2^23 leaves no fraction bits, so the float
// addition itself rounds (to nearest even, the default mode). Written out because PoCL turns
// rint and convert_uchar_sat_rte into calls that block vectorisation.
#define ROUND_EVEN(v) (((v) + 8388608.0f) - 8388608.0f)
// The sample clamped and plus 2^23: its low mantissa bits hold the rounded sample, so a store can
// take them as an integer (as_uint) with no float-to-int conversion.
#define ROUND_BIASED(v) (clamp((v), 0.0f, (float)SAMPLE_MAX) + 8388608.0f)
#define ROUND_U8(v) (ROUND_BIASED(v) - 8388608.0f)
#if CHANNELS == 1
#define TO_U8(v) convert_uchar(ROUND_U8(v))
#else
#define TO_U8(v) convert_uchar2(ROUND_U8(v))
#endif
#define IMAGE_NORM (SAMPLE_BYTES == 1 ? 255.0f : 65535.0f)

__constant sampler_t clvf_nearest =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

#if SRC_IMAGE
#define SRC_PLANE __read_only image2d_t src
// Rounded: v / 255 * 255 is not always exactly v in float; the sample is an integer.
#define SRC_LANE(i, y) ((float)((int)ROUND_EVEN(image_lane(src, (i), (y)) * IMAGE_NORM) >> SAMPLE_SHIFT))
float image_lane(__read_only image2d_t img, int i, int y) {
  const float4 v = read_imagef(img, clvf_nearest, (int2)(i / CHANNELS, y));
  return i % CHANNELS == 0 ? v.x : v.y;
}
#else
#define SRC_PLANE __global const uchar *src, int src_offset, int src_pitch
#if SAMPLE_BYTES == 1
#define SRC_LANE(i, y) convert_float(src[src_offset + (size_t)(y) * src_pitch + (i)])
#else
#define SRC_LANE(i, y) read_lane16(src + src_offset + (size_t)(y) * src_pitch, (i))
float read_lane16(__global const uchar *row, int i) {
  return (float)(((int)row[2 * i] | ((int)row[2 * i + 1] << 8)) >> SAMPLE_SHIFT);
}
#endif
#endif

#if DST_FLOAT
#define DST_PLANE __global float *dst, int dst_offset, int dst_pitch
#if CHANNELS == 1
#define DST_STORE_PIX(x, y, p) (dst[dst_offset + (size_t)(y) * dst_pitch + (x)] = (p))
#else
#define DST_STORE_PIX(x, y, p) vstore2((p), (x), dst + dst_offset + (size_t)(y) * dst_pitch)
#endif
#elif DST_IMAGE
#define DST_PLANE __write_only image2d_t dst
// Rounded here exactly as TO_U8 so that both paths give identical bytes whatever rounding the
// device's UNORM conversion applies to ties.
#define DST_STORE_PIX(x, y, p) \
  write_imagef(dst, (int2)((x), (y)), PIX_TO_F4(ROUND_U8(p) * ((float)(1 << SAMPLE_SHIFT) / IMAGE_NORM)))
#else
#define DST_PLANE __global uchar *dst, int dst_offset, int dst_pitch
#if SAMPLE_BYTES == 2
#define DST_STORE_PIX(x, y, p) store_pix16(dst + dst_offset + (size_t)(y) * dst_pitch, (x), (p))
#if CHANNELS == 1
void store_pix16(__global uchar *row, int x, float p) {
  const uint v = (uint)ROUND_U8(p) << SAMPLE_SHIFT;
  row[2 * x] = (uchar)v;
  row[2 * x + 1] = (uchar)(v >> 8);
}
#else
void store_pix16(__global uchar *row, int x, float2 p) {
  const uint2 v = convert_uint2(ROUND_U8(p)) << SAMPLE_SHIFT;
  vstore4((uchar4)((uchar)v.x, (uchar)(v.x >> 8), (uchar)v.y, (uchar)(v.y >> 8)), x, row);
}
#endif
#elif CHANNELS == 1
#define DST_STORE_PIX(x, y, p) (dst[dst_offset + (size_t)(y) * dst_pitch + (x)] = TO_U8(p))
#else
#define DST_STORE_PIX(x, y, p) vstore2(TO_U8(p), (x), dst + dst_offset + (size_t)(y) * dst_pitch)
#endif
#endif
