// Separable resampling. Each output position o of a pass has a first source index offsets[o]
// and TAPS weights (normalised, edges folded in so no window leaves the plane; rows of TAPS_PAD
// with zeros after TAPS), computed once on the host at plan time. Pass 1 filters columns into a float intermediate (src_w x dst_h
// pixels), pass 2 filters its rows into the destination plane. Vertical first: its loads are
// contiguous along a row, so the pass over the larger data is the cheap one on CPUs.

#ifndef HVEC  // set for the program that runs scale_h; the one for scale_v leaves it out
#define HVEC 4
#endif

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

// One work-item per output pixel. The taps of one pixel are contiguous in the intermediate row,
// so they are read as vectors (HVEC taps at a time: 8 pays on CPUs, 4 on GPUs) and reduced
// (weights are padded with zeros to TAPS_PAD, and the intermediate rows carry finite padding to
// read into).
__kernel void scale_h(__global const float *tmp, int tmp_pitch, DST_PLANE,
                      __global const int *offsets, __global const float *weights) {
  const int x = get_global_id(0), y = get_global_id(1);
  __global const float *w = weights + x * TAPS_PAD;
  __global const float *row = tmp + (size_t)y * tmp_pitch + offsets[x] * CHANNELS;
#if CHANNELS == 1 && HVEC == 8
  float8 acc8 = 0.0f;
  UNROLL
  for (int k = 0; k < TAPS_PAD; k += 8)
    acc8 += vload8(0, row + k) * vload8(0, w + k);
  const float4 acc4 = acc8.lo + acc8.hi;
  const float acc = (acc4.x + acc4.y) + (acc4.z + acc4.w);
#elif CHANNELS == 1
  float acc = 0.0f;
  UNROLL
  for (int k = 0; k < TAPS_PAD; k += 4)
    acc += dot(vload4(0, row + k), vload4(0, w + k));
#elif HVEC == 8
  float8 even = 0.0f, odd = 0.0f;
  UNROLL
  for (int k = 0; k < TAPS_PAD; k += 8) {
    const float16 v = vload16(0, row + 2 * k);
    const float8 wk = vload8(0, w + k);
    even += v.even * wk;
    odd += v.odd * wk;
  }
  const float4 e4 = even.lo + even.hi, o4 = odd.lo + odd.hi;
  const float2 acc = (float2)((e4.x + e4.y) + (e4.z + e4.w), (o4.x + o4.y) + (o4.z + o4.w));
#else
  float2 acc = 0.0f;
  UNROLL
  for (int k = 0; k < TAPS_PAD; k += 4) {
    const float8 v = vload8(0, row + 2 * k);
    const float4 wk = vload4(0, w + k);
    acc += (float2)(dot(v.even, wk), dot(v.odd, wk));
  }
#endif
  DST_STORE_PIX(x, y, acc);
}
