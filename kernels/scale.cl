// Separable resampling. Each output position o of a pass has a first source index offsets[o]
// and `taps` weights (already normalised, edge samples clamped); the host computes them once
// at plan time. Pass 1 filters rows into a float intermediate (dst_w x src_h), pass 2 filters
// its columns into the destination plane.

__kernel void scale_h(SRC_PLANE, int src_w,
                      __global pix_t *tmp, int tmp_pitch, int dst_w, int rows,
                      __global const int *offsets, __global const float *weights, int taps) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= dst_w || y >= rows) return;
  const int first = offsets[x];
  __global const float *w = weights + (size_t)x * taps;
  pix_t acc = 0.0f;
  for (int k = 0; k < taps; ++k)
    acc += w[k] * SRC_LOAD(clamp(first + k, 0, src_w - 1), y);
  tmp[(size_t)y * tmp_pitch + x] = acc;
}

__kernel void scale_v(__global const pix_t *tmp, int tmp_pitch, int src_h,
                      DST_PLANE, int dst_w, int dst_h,
                      __global const int *offsets, __global const float *weights, int taps) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= dst_w || y >= dst_h) return;
  const int first = offsets[y];
  __global const float *w = weights + (size_t)y * taps;
  pix_t acc = 0.0f;
  for (int k = 0; k < taps; ++k)
    acc += w[k] * tmp[(size_t)clamp(first + k, 0, src_h - 1) * tmp_pitch + x];
  DST_STORE(x, y, acc);
}
