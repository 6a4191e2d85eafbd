// The one-pass CPU scale where the plane's ratio is q source samples to p output samples and every
// output repeats one pattern of taps (resample_table.hpp's PhasePattern): a work-item makes ROWS
// whole output rows.
//   1. It filters its rows' source vertically, Q vectors of 16 lanes at a time (scale_rows.h), and
//      splits each result into Q phases, phase q holding source pixels q, q + Q, q + 2Q, ...
//      (SPLIT: lane permutations, defined by the host), into local memory; then mirrors the
//      samples the taps reach past the edges into place.
//   2. Output pixel P * m + phi is then a sum of constant weights times phase vectors read at
//      m + shift (HSUM, by the host): 16 lanes of phase phi's outputs per load and multiply-add,
//      whatever the ratio; MERGE interleaves the P phases' vectors into output order.
// Against scale_block.cl: every source column is filtered vertically once (blocks overlap there)
// and the horizontal taps are loads, not permutations.
// With TAPS_H (below) it serves every other ratio: step 1 without the split, step 2 a gather by
// shuffles per tap.
// Build options: PHASE_P, PHASE_Q, M0 (phase pixels before source pixel 0), PH_PITCH (floats per
// phase row), ROWS, SPAN_V, TAPS_V; the host also defines PAD_COPIES (the pixels the taps reach
// past each edge, from the ones they repeat, by resample_table.hpp's mirror_sample). TAPS_H: the taps an output has, WRITTEN (lanes step 1 writes of a row), and
// the host's TAP_CASES.

#define VECTORS PHASE_Q
#define CH CHANNELS
#define PX (16 / CH)  // pixels in a vector

// Lanes at or past `limit` (the row's end) read as 0: a block's vector may run past the plane.
float16 load_lanes16_upto(__global const uchar *row, int lane, int limit) {
  float v[16];
  for (int i = 0; i < 16; ++i) {
    const int l = min(lane + i, limit - 1);
#if SAMPLE_BYTES == 1
    v[i] = lane + i < limit ? (float)row[l] : 0.0f;
#else
    v[i] = lane + i < limit ? (float)(((__global const ushort *)row)[l] >> SAMPLE_SHIFT) : 0.0f;
#endif
  }
  return vload16(0, v);
}

// 16 floats to or from a 4-byte aligned address of local memory in one access: PoCL's vload16
// and vstore16 there became up to five loads and inserts, or three stores and extracts.
typedef float16 float16_a4 __attribute__((aligned(4)));
float16 load_local16(__local const float *p) { return *(__local const float16_a4 *)p; }
void store_local16(float16 v, __local float *p) { *(__local float16_a4 *)p = v; }

// PAIRED: a second plane of the same shape (yuv420p's V after U) in the same launch, its groups
// from pair_groups on.
#ifdef PAIRED
#define SECOND_PLANE , __global const uchar *src2, int src2_offset, int src2_pitch, \
                       __global uchar *dst2, int dst2_offset, int dst2_pitch, int pair_groups
#else
#define SECOND_PLANE
#endif

// TAPS_H (taps a horizontal output): the form for ratios with no short pattern (scale_taps.hpp).
// The vertical results stay in lane order, and output vector b is TAP_CASES' case for its
// pattern tap_blocks[b].y: taps gathered by shuffles from the window at lane tap_blocks[b].x,
// weighted by tap_weights[b * TAPS_H + tap].
#ifdef TAPS_H
#define TAP_ARGS , __global const int2 *tap_blocks, __global const float16 *tap_weights
#define STORE_COLUMNS(r, b) \
  _Pragma("unroll") for (int v = 0; v < VECTORS; ++v) store_local16(column[r][v], &row[r][(b) * 16 * VECTORS + 16 * v])
#else
#define TAP_ARGS
#define STORE_COLUMNS(r, b) \
  _Pragma("unroll") for (int q = 0; q < PHASE_Q; ++q) store_local16(SPLIT(column[r], q), &ph[r][q][((b) * PX + M0) * CH])
#endif

// row_groups, row_weights: as scale_block.cl.
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void scale_phase(SRC_PLANE, DST_PLANE, __global const int2 *row_groups, __global const float *row_weights,
                 int src_lanes, int dst_lanes, int dst_rows TAP_ARGS SECOND_PLANE) {
#ifdef TAPS_H
  __local float row[ROWS][PH_PITCH];
  // Windows may reach past the written blocks: finite values there (their lanes are never taken).
  for (int r = 0; r < ROWS; ++r)
    for (int i = WRITTEN; i < PH_PITCH; ++i) row[r][i] = 0.0f;
#else
  __local float ph[ROWS][PHASE_Q][PH_PITCH];
#endif
  int g = get_global_id(0);
#ifdef PAIRED
  if (g >= pair_groups) {
    g -= pair_groups;
    src = src2, src_offset = src2_offset, src_pitch = src2_pitch;
    dst = dst2, dst_offset = dst2_offset, dst_pitch = dst2_pitch;
  }
#endif
  const int y0 = g * ROWS;
  const int2 group = row_groups[g];
  __global const uchar *first = src + src_offset + (size_t)group.x * src_pitch;
  // The group's vertical weights as whole vectors: a multiply-add then loads its weight, where
  // broadcasting it from row_weights took a shuffle every time (PoCL, 1080p->720p spline36 kernel
  // minima 0.257 -> 0.243 ms luma).
  __local float16 wl[SPAN_V * ROWS];
  for (int i = 0; i < SPAN_V * ROWS; ++i) wl[i] = (float16)row_weights[(size_t)g * SPAN_V * ROWS + i];
#define WEIGHT(s, r) wl[(s) * ROWS + (r)]

  const int blocks = (src_lanes + 16 * PHASE_Q - 1) / (16 * PHASE_Q), whole = src_lanes / (16 * PHASE_Q);
  for (int b = 0; b < blocks; ++b) {
    const int lane0 = b * 16 * PHASE_Q;
    float16 column[ROWS][VECTORS];
    _Pragma("unroll") for (int r = 0; r < ROWS; ++r) _Pragma("unroll") for (int v = 0; v < VECTORS; ++v) column[r][v] = 0.0f;
    if (b < whole) {
      COLUMNS(load_lanes16)
    } else {
#define LOAD_UPTO(row, lane) load_lanes16_upto((row), (lane), src_lanes)
      VERTICAL(ANY_ROW, LOAD_UPTO)
#undef LOAD_UPTO
    }
    _Pragma("unroll") for (int r = 0; r < ROWS; ++r) STORE_COLUMNS(r, b);
  }
#ifdef PAD_COPIES
  for (int r = 0; r < ROWS; ++r) PAD_COPIES(ph[r]);
#endif

#ifdef TAPS_H
  const int out_vectors = (dst_lanes + 15) / 16;
  for (int b = 0; b < out_vectors; ++b) {
    const int2 blk = tap_blocks[b];
    __global const float16 *wt = tap_weights + (size_t)b * TAPS_H;
    switch (blk.y) { TAP_CASES }
  }
#else
  const int out_blocks = (dst_lanes + 16 * PHASE_P - 1) / (16 * PHASE_P);
  for (int r = 0; r < ROWS; ++r) {
    const int y = y0 + r;
    if (y >= dst_rows) break;
    for (int b = 0; b < out_blocks; ++b) {
      const int m = b * PX;
#define PH(q, shift) load_local16(&ph[r][q][(m + (shift) + M0) * CH])
      float16 o[PHASE_P];
      _Pragma("unroll") for (int phi = 0; phi < PHASE_P; ++phi) o[phi] = HSUM(phi);
#undef PH
      _Pragma("unroll") for (int v = 0; v < PHASE_P; ++v) STORE_LANES(MERGE(o, v), y, (b * PHASE_P + v) * 16, dst_lanes);
    }
  }
#endif
}
