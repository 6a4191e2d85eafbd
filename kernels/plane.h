// One way for kernels to reach a plane of 8-bit samples, whether it lives in a buffer
// (pointer + byte offset + byte pitch: PoCL has no CL_RG images) or in an image (what interop
// textures arrive as). Samples are handled as floats on the 0..255 scale.
//
// Build options choose the variant:
//   CHANNELS   1 (Y, U, V planes) or 2 (NV12's interleaved UV plane)
//   SRC_IMAGE  1: the source plane is an image2d_t, 0: a buffer
//   DST_IMAGE  1: the destination plane is an image2d_t, 0: a buffer
//
// A source is read one "lane" at a time (i = x * CHANNELS + c along a row): scalar float code is
// what CPU compilers vectorise across work-items, and GPUs do not mind. A destination is
// written a pixel at a time (float or float2), since an image cannot be written per channel.

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
#define ROUND_U8(v) ROUND_EVEN(clamp((v), 0.0f, 255.0f))
#if CHANNELS == 1
#define TO_U8(v) convert_uchar(ROUND_U8(v))
#else
#define TO_U8(v) convert_uchar2(ROUND_U8(v))
#endif

__constant sampler_t clvf_nearest =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

#if SRC_IMAGE
#define SRC_PLANE __read_only image2d_t src
// Rounded: v / 255 * 255 is not always exactly v in float; the sample is an integer.
#define SRC_LANE(i, y) ROUND_U8(image_lane(src, (i), (y)) * 255.0f)
float image_lane(__read_only image2d_t img, int i, int y) {
  const float4 v = read_imagef(img, clvf_nearest, (int2)(i / CHANNELS, y));
  return i % CHANNELS == 0 ? v.x : v.y;
}
#else
#define SRC_PLANE __global const uchar *src, int src_offset, int src_pitch
#define SRC_LANE(i, y) convert_float(src[src_offset + (size_t)(y) * src_pitch + (i)])
#endif

#if DST_IMAGE
#define DST_PLANE __write_only image2d_t dst
// Rounded here exactly as TO_U8 so that both paths give identical bytes whatever rounding the
// device's UNORM conversion applies to ties.
#define DST_STORE_PIX(x, y, p) \
  write_imagef(dst, (int2)((x), (y)), PIX_TO_F4(ROUND_U8(p) * (1.0f / 255.0f)))
#else
#define DST_PLANE __global uchar *dst, int dst_offset, int dst_pitch
#if CHANNELS == 1
#define DST_STORE_PIX(x, y, p) (dst[dst_offset + (size_t)(y) * dst_pitch + (x)] = TO_U8(p))
#else
#define DST_STORE_PIX(x, y, p) vstore2(TO_U8(p), (x), dst + dst_offset + (size_t)(y) * dst_pitch)
#endif
#endif
