// Separable resampling in two passes (GPUs, images, and CPU spans too wide for scale_block.cl).
// Each output position o of a pass has a first source index offsets[o] and TAPS weights
// (normalised, edges folded in so no window leaves the plane), computed once on the host at
// plan time. Pass 1 filters columns into a float intermediate (src_w x dst_h pixels), pass 2
// filters its rows into the destination plane. Vertical first: its loads are contiguous along
// a row, so the pass over the larger data is the cheap one on CPUs.

#if TAPS_PAD <= 64
#define UNROLL _Pragma("unroll")
#else
#define UNROLL
#endif

// One work-item per lane (sample of one channel) of an intermediate row.
__kernel void scale_v(SRC_PLANE, __global float *tmp, int tmp_pitch,
                      __global const int *offsets, __global const float *weights) {
  const int i = get_global_id(0), y = get_global_id(1);
  const int first = offsets[y];
  __global const float *w = weights + y * TAPS_PAD;
  float acc = 0.0f;
  UNROLL
  for (int k = 0; k < TAPS; ++k)
    acc += w[k] * SRC_LANE(i, first + k);
  tmp[(size_t)y * tmp_pitch + i] = acc;
}

// One work-item per output pixel. With TAP_MAJOR (CPUs) the weights are stored tap by tap, so
// consecutive work-items read consecutive weights and the compiler vectorises across them.
// Otherwise (GPUs) a pixel's taps are contiguous in the intermediate row and read 4 at a time
// (weights padded with zeros to TAPS_PAD; the intermediate rows carry finite padding to read
// into).
__kernel void scale_h(__global const float *tmp, int tmp_pitch, DST_PLANE,
                      __global const int *offsets, __global const float *weights) {
  const int x = get_global_id(0), y = get_global_id(1);
  __global const float *row = tmp + (size_t)y * tmp_pitch + offsets[x] * CHANNELS;
#if TAP_MAJOR
  const int n = get_global_size(0);
#if CHANNELS == 1
  float acc = 0.0f;
  UNROLL
  for (int k = 0; k < TAPS; ++k) acc += weights[k * n + x] * row[k];
#else
  float2 acc = 0.0f;
  UNROLL
  for (int k = 0; k < TAPS; ++k) acc += weights[k * n + x] * vload2(k, row);
#endif
#else
  __global const float *w = weights + x * TAPS_PAD;
#if CHANNELS == 1
  float acc = 0.0f;
  UNROLL
  for (int k = 0; k < TAPS_PAD; k += 4)
    acc += dot(vload4(0, row + k), vload4(0, w + k));
#else
  float2 acc = 0.0f;
  UNROLL
  for (int k = 0; k < TAPS_PAD; k += 4) {
    const float8 v = vload8(0, row + 2 * k);
    const float4 wk = vload4(0, w + k);
    acc += (float2)(dot(v.even, wk), dot(v.odd, wk));
  }
#endif
#endif
  DST_STORE_PIX(x, y, acc);
}
