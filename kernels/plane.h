// One way for kernels to reach a plane of 8-bit samples, whether it lives in a buffer
// (pointer + byte offset + byte pitch: PoCL has no CL_RG images) or in an image (what interop
// textures arrive as). Samples are handled as floats on the 0..255 scale.
//
// Build options choose the variant:
//   CHANNELS   1 (Y, U, V planes) or 2 (NV12's interleaved UV plane)
//   SRC_IMAGE  1: the source plane is an image2d_t, 0: a buffer
//   DST_IMAGE  1: the destination plane is an image2d_t, 0: a buffer

#if CHANNELS == 1
typedef float pix_t;
#define PIX_FROM_F4(v) ((v).x)
#define PIX_TO_F4(p) ((float4)((p), 0.0f, 0.0f, 1.0f))
#define BUF_LOAD(row, x) convert_float((row)[(x)])
#define BUF_STORE(row, x, p) ((row)[(x)] = convert_uchar_sat_rte(p))
#elif CHANNELS == 2
typedef float2 pix_t;
#define PIX_FROM_F4(v) ((v).xy)
#define PIX_TO_F4(p) ((float4)((p), 0.0f, 1.0f))
#define BUF_LOAD(row, x) convert_float2(vload2((x), (row)))
#define BUF_STORE(row, x, p) vstore2(convert_uchar2_sat_rte(p), (x), (row))
#else
#error "CHANNELS must be 1 or 2"
#endif

__constant sampler_t clvf_nearest =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

#if SRC_IMAGE
#define SRC_PLANE __read_only image2d_t src
// rint: v / 255 * 255 is not always exactly v in float; the sample is an integer.
#define SRC_LOAD(x, y) rint(PIX_FROM_F4(read_imagef(src, clvf_nearest, (int2)((x), (y)))) * 255.0f)
#else
#define SRC_PLANE __global const uchar *src, int src_offset, int src_pitch
#define SRC_LOAD(x, y) BUF_LOAD(src + src_offset + (size_t)(y) * src_pitch, (x))
#endif

#if DST_IMAGE
#define DST_PLANE __write_only image2d_t dst
// Rounded here (half to even, as the buffer path's convert_*_sat_rte) so that both paths give
// identical bytes whatever rounding the device's UNORM conversion applies to ties.
#define DST_STORE(x, y, p) \
  write_imagef(dst, (int2)((x), (y)), PIX_TO_F4(rint(clamp((p), 0.0f, 255.0f)) * (1.0f / 255.0f)))
#else
#define DST_PLANE __global uchar *dst, int dst_offset, int dst_pitch
#define DST_STORE(x, y, p) BUF_STORE(dst + dst_offset + (size_t)(y) * dst_pitch, (x), (p))
#endif
