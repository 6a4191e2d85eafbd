// Both passes of the scale in one work-item, for CPU devices: a work-item makes OUTS vectors of 16
// lanes (16 * OUTS / CHANNELS pixels) of ROWS output rows. It filters the block's SPAN source columns
// vertically into registers (16 lanes per vector load), then applies the block's dense
// SPAN x (16 * OUTS) horizontal matrix (its taps at their source columns, zeros elsewhere), a vector
// multiply-add per source column. Nothing is gathered and no intermediate goes to memory.
// The ROWS outputs share their source rows: the group's SPAN_V rows are each loaded and
// converted once and weighted for every output row (a dense SPAN_V x ROWS matrix, zeros off each
// row's taps): loading and converting samples costs more than the multiply-adds.
// Buffers only; scale.cl's two passes serve images, GPUs and spans too wide for registers, and
// scale_phase.cl takes the planes whose ratio has a phase pattern (where they shrink).

#define VECTORS (SPAN * CHANNELS / 16)
#ifndef OUTS
#define OUTS 1
#endif
// Independent sums per output vector (two vectors are already two chains).
#define CHAINS (OUTS > 1 ? 1 : 2)

// blocks[b]: the block's first source sample, and 1 where it repeats the pattern (PATTERN_SUM(c,
// w, o), defined by the host for the plane's ratio: output vector o's taps as lane permutations of
// the columns).
// row_groups[g]: the group's first source row, and 1 where it repeats the pattern;
// row_weights[(g * SPAN_V + s) * ROWS + r]: output row g * ROWS + r's weight of source row
// row_groups[g].x + s (resample_table.hpp's BlockTable of the vertical table).
__kernel void scale_block(SRC_PLANE, DST_PLANE, __global const int2 *row_groups, __global const float *row_weights,
                          __global const int2 *blocks, __global const float16 *matrix,
                          __global const float16 *pattern, int dst_lanes, int dst_rows) {
  const int b = get_global_id(0), g = get_global_id(1), y0 = g * ROWS;
  const int2 block = blocks[b], group = row_groups[g];
  const int lane0 = block.x * CHANNELS;
  __global const uchar *first = src + src_offset + (size_t)group.x * src_pitch;
  __global const float *wv = row_weights + (size_t)g * SPAN_V * ROWS;
#define WEIGHT(s, r) wv[(s) * ROWS + (r)]
  float16 column[ROWS][VECTORS];
  _Pragma("unroll") for (int r = 0; r < ROWS; ++r) _Pragma("unroll") for (int v = 0; v < VECTORS; ++v) column[r][v] = 0.0f;
  COLUMNS(load_lanes16)
  float16 out[ROWS][OUTS];
#ifdef PATTERN_SUM
  if (block.y) {
    _Pragma("unroll") for (int r = 0; r < ROWS; ++r) _Pragma("unroll") for (int o = 0; o < OUTS; ++o)
      out[r][o] = PATTERN_SUM(column[r], pattern, o);
  } else
#endif
  {
    // Each matrix row is used for ROWS output rows (it is the memory traffic); CHAINS independent
    // sums per row let the multiply-adds overlap instead of waiting on one another.
    __global const float16 *m = matrix + b * SPAN * OUTS;
    float16 sum[ROWS][OUTS][CHAINS];
    _Pragma("unroll") for (int r = 0; r < ROWS; ++r) _Pragma("unroll") for (int o = 0; o < OUTS; ++o)
      _Pragma("unroll") for (int c = 0; c < CHAINS; ++c) sum[r][o][c] = 0.0f;
    _Pragma("unroll") for (int s = 0; s < SPAN; ++s) {
      _Pragma("unroll") for (int o = 0; o < OUTS; ++o) {
        const float16 w = m[s * OUTS + o];
        _Pragma("unroll") for (int r = 0; r < ROWS; ++r) {
          const float *lanes = (const float *)column[r];
#if CHANNELS == 1
          sum[r][o][s % CHAINS] += w * lanes[s];
#else
          const float2 p = vload2(s, lanes);
          sum[r][o][s % CHAINS] += w * (float16)(p, p, p, p, p, p, p, p);
#endif
        }
      }
    }
    _Pragma("unroll") for (int r = 0; r < ROWS; ++r) _Pragma("unroll") for (int o = 0; o < OUTS; ++o) {
      out[r][o] = sum[r][o][0];
      _Pragma("unroll") for (int c = 1; c < CHAINS; ++c) out[r][o] += sum[r][o][c];
    }
  }
  _Pragma("unroll") for (int r = 0; r < ROWS; ++r) {
    const int y = y0 + r;
    if (y >= dst_rows) break;
    _Pragma("unroll") for (int o = 0; o < OUTS; ++o) STORE_LANES(out[r][o], y, (b * OUTS + o) * 16, dst_lanes);
  }
}
