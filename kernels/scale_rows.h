// What the one-pass CPU scale kernels (scale_block.cl, scale_phase.cl) share: a work-item makes
// ROWS output rows from the SPAN_V source rows of its row group, each source row loaded and
// converted once and weighted for every output row in registers (column[ROWS][VECTORS] of 16-lane
// vectors from `first`, lanes from `lane0`, weights WEIGHT(s, r): see the kernels).

#if SPAN_V <= 64
#define UNROLL_V _Pragma("unroll")
#else
#define UNROLL_V
#endif

float16 load_lanes16(__global const uchar *row, int lane) {
#if SAMPLE_BYTES == 1
  return convert_float16(vload16(0, row + lane));
#else  // 16-bit planes are 2-byte aligned (checked when a frame is bound)
  return convert_float16(vload16(0, (__global const ushort *)row + lane) >> (ushort)SAMPLE_SHIFT);
#endif
}

#if DST_FLOAT
#define DST_ROW(y) (dst + dst_offset + (size_t)(y) * dst_pitch)
#define STORE16(v, row, lane) vstore16((v), 0, (row) + (lane))
#define STORE1(v, row, lane) ((row)[lane] = (v))
#else
// The sample from plane.h's ROUND_BIASED bits: a conversion to the sample's width keeps just the
// rounded sample.
#define ROUNDED_BITS16(v) as_uint16(ROUND_BIASED(v))
#define ROUNDED_BITS1(v) as_uint(ROUND_BIASED(v))
#if SAMPLE_BYTES == 1
#define DST_ROW(y) (dst + dst_offset + (size_t)(y) * dst_pitch)
#define STORE16(v, row, lane) vstore16_u8(convert_uchar16(ROUNDED_BITS16(v)), (row) + (lane))
#define STORE1(v, row, lane) ((row)[lane] = convert_uchar(ROUNDED_BITS1(v)))
#else
#define DST_ROW(y) ((__global ushort *)(dst + dst_offset + (size_t)(y) * dst_pitch))
#define STORE16(v, row, lane) vstore16_u16(convert_ushort16(ROUNDED_BITS16(v)) << (ushort)SAMPLE_SHIFT, (row) + (lane))
#define STORE1(v, row, lane) ((row)[lane] = convert_ushort(ROUNDED_BITS1(v)) << (ushort)SAMPLE_SHIFT)
#endif
#endif

// Stores 16 lanes from `lane` of output row y, or those of them before `lanes`.
#define STORE_LANES(v, y, lane, lanes)                                         \
  do {                                                                         \
    const int left_ = (lanes) - (lane);                                        \
    if (left_ >= 16) {                                                         \
      STORE16((v), DST_ROW(y), (lane));                                        \
    } else {                                                                   \
      float last_[16];                                                         \
      vstore16((v), 0, last_);                                                 \
      for (int i_ = 0; i_ < left_; ++i_) STORE1(last_[i_], DST_ROW(y), (lane) + i_); \
    }                                                                          \
  } while (0)

// Source row s of the group weighted for output row r (where IN_WINDOW(r, s)), its lanes read by
// LOAD(row, lane), weighted by WEIGHT(s, r) (the kernel's).
#define VERTICAL(IN_WINDOW, LOAD)                                                              \
  UNROLL_V for (int s = 0; s < SPAN_V; ++s) {                                                  \
    _Pragma("unroll") for (int v = 0; v < VECTORS; ++v) {                                      \
      const float16 x = LOAD(first + (size_t)s * src_pitch, lane0 + 16 * v);                   \
      _Pragma("unroll") for (int r = 0; r < ROWS; ++r) if (IN_WINDOW(r, s)) column[r][v] += WEIGHT(s, r) * x; \
    }                                                                                          \
  }
#define ANY_ROW(r, s) 1
// Groups that repeat the ratio's pattern (row_groups[g].y) skip the zeros of the dense table:
// output row r's TAPS_V taps start ROW_SHIFT(r) rows into the group (host-defined).
#ifdef ROW_SHIFT
#define ROW_TAP(r, s) ((s) >= ROW_SHIFT(r) && (s) < ROW_SHIFT(r) + TAPS_V)
#endif

// The group's ROWS x VECTORS column sums: rows that repeat the pattern by their taps only.
#ifdef ROW_SHIFT
#define COLUMNS(LOAD)         \
  if (group.y) {              \
    VERTICAL(ROW_TAP, LOAD)   \
  } else {                    \
    VERTICAL(ANY_ROW, LOAD)   \
  }
#else
#define COLUMNS(LOAD) VERTICAL(ANY_ROW, LOAD)
#endif
