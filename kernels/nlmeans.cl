// Non-local means, with the weights of FFmpeg's nlmeans: for every offset o of the research
// window but (0, 0), ssd = sum over the patch of squared differences (edge samples repeated),
// w = exp(-ssd / h^2) when ssd < max_ssd (else 0), only where p + o lies inside the plane;
// out = (sum w * I(p + o) + I(p)) / (sum w + 1), rounded half up.
//
// A work-group owns a tile of TW = WX * VEC lanes x TH rows (each work-item VEC adjacent output
// lanes: 1 on GPUs, a CPU vector's worth on CPUs) and holds the source around it in local memory.
// Per offset:
//   A  every column of the tile plus the patch's overhang gets its vertical patch sums of
//      squared differences for all TH rows, sliding down the column (2 new squares per row);
//   B  each output adds 2*PATCH_R+1 of those column sums and accumulates the weighted candidate.
// Sums of squares are integers (exact for any patch size); accumulation is in float, in
// FFmpeg's order, without contraction, so results match it to the last bit almost everywhere
// (on CPUs; GPUs take the hardware's exp2 and contract, for speed).
//
// Temporal (TEMPORAL=1): the source is a ring of frames in one buffer (frame f of `frames` at
// byte offset frame_offsets.at[f], the current frame first; MAX_FRAMES at most, an argument by
// value, so that a frame needs no write before its kernel); after the current frame's candidates,
// every offset of each other frame is a candidate too, (0, 0) included.
//
// FLOAT_SUMS=1 (GPUs, the one-round column pass with runs, patches small enough that every sum
// of squares and every partial sum of the sliding stays below 2^24): the tile holds floats and
// the sums are float, still exact integers, since GPUs' integer units have half the lanes of their
// float ones and each int-float conversion is an instruction of its own; the tile's and the sums'
// row pitches are then 1 modulo 32 words, so the output pass's reads (a warp's rows x runs) hit
// distinct banks.
//
// WEIGHTING 1-3 replaces the weight by max(0, 1 - ssd / h^2) to the power 1, 2 or 8 (bisquare, as
// KNLMeansCL's wmode 1-3); weight_scale is then 1 / h^2 (else -log2(e) / h^2).
//
// Build options: CHANNELS, SRC_IMAGE, DST_IMAGE (plane.h), PATCH_R, SEARCH_R (radii in pixels),
// NATIVE_EXP2 (1: native_exp2 for the weights, 2: NVIDIA's flushing ex2), FLOAT_SUMS,
// WX, VEC (1, 2, 4, 8 or 16), TH, TW (lanes per tile: WX * VEC, or on GPUs WX less the patch's
// overhang, so that phase A's columns take exactly one round of the work-group).
#if NATIVE_EXP2  // GPUs: their weights differ from FFmpeg's in the last bits anyway
#pragma OPENCL FP_CONTRACT ON
#else
#pragma OPENCL FP_CONTRACT OFF
#endif

// PLANAR (GPUs, two-channel planes): each channel is filtered as a plane of its own (CH = 1), so
// that chroma gets luma's shape, whose warps the passes fill (the interleaved form's patches span
// twice the lanes and its shape leaves a warp partly idle). PLANAR=1: a work-group takes both
// channels of its tile in turn and writes pixels (any destination); PLANAR=2: a work-group per
// channel (get_group_id(2)), writing its lane of each pixel (byte buffers only).
#ifndef PLANAR
#define PLANAR 0
#endif
#if PLANAR
#define CH 1
#define PASSES (3 - PLANAR)
#define LANE_OF(px, tx) ((px) * CHANNELS + channel)  // the storage lane of tile column tx
#else
#define CH CHANNELS
#define PASSES 1
#define LANE_OF(px, tx) ((px) * CH + (tx) % CH)
#endif
#ifndef TW
#define TW (WX * VEC)
#endif
#define HALO (PATCH_R + SEARCH_R)
#define PATCH (2 * PATCH_R + 1)
#define VCOLS (TW + 2 * PATCH_R * CH)                  // columns of vertical sums
#define VCHUNKS ((VCOLS + VEC - 1) / VEC)
#define VCOLS_P (VCHUNKS * VEC)
#define TILE_W (VCOLS_P + 2 * SEARCH_R * CH)          // covers every column phase A reads
#define TILE_H (TH + 2 * HALO)
#define COLUMN_ROWS (TH + 2 * PATCH_R)
// SEGS > 0 (GPUs): phase B gives each work-item SEG_L adjacent lanes of one row (SEGS segments per
// row), sliding the patch sum along them: 2 reads of column sums per output instead of PATCH.
// The column sums' row pitch is then 1 modulo 32 words, so that a warp's rows x segments read
// distinct banks.
#ifndef SEGS
#define SEGS 0
#endif
#if SEGS
#define VSUM_PITCH ((VCOLS_P + 31) / 32 * 32 + 1)
#else
#define VSUM_PITCH VCOLS_P
#endif
#ifndef FLOAT_SUMS
#define FLOAT_SUMS 0
#endif
#if FLOAT_SUMS
typedef float sample_t;
typedef float sum_t;
#define TILE_PITCH ((TILE_W + 31) / 32 * 32 + 1)
#else
typedef uchar sample_t;
typedef int sum_t;
#define TILE_PITCH TILE_W
#endif
// One lane per work-item and a work-group that covers the columns in one round (the GPU shape):
// phase A keeps its column in registers.
#define ONE_ROUND (VEC == 1 && VCHUNKS <= WX && COLUMN_ROWS <= 64)
// Offsets per candidate column read in the one-round column pass (the host's choice; fewer hold
// fewer registers); where they do not divide the research window, the last step's rows past the
// tile are clamped (and its offsets past it skipped).
#ifndef OY_STEP
#define OY_STEP 5
#endif
#if (2 * SEARCH_R + 1) % OY_STEP
#define CANDIDATE_ROW(r) min(r, TILE_H - 1)
#else
#define CANDIDATE_ROW(r) (r)
#endif
#if PLANAR && !(SEGS && CHANNELS == 2)
#error "PLANAR is for two-channel planes with the output pass's runs"
#endif
#if PLANAR == 2 && (DST_IMAGE || DST_FLOAT || SAMPLE_BYTES != 1)
#error "PLANAR=2 writes single lanes: byte buffers only"
#endif
#if FLOAT_SUMS && !(ONE_ROUND && SEGS)
#error "FLOAT_SUMS needs the one-round column pass and the output pass's runs"
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#if VEC == 1
typedef int intv;
typedef float floatv;
#define LOAD_U8(p) ((int)*(p))
#define LOAD_I(p) (*(p))
#define STORE_I(v, p) (*(p) = (v))
#define STORE_F(v, p) (*(p) = (v))
#define TO_FLOAT(v) ((float)(v))
#define TO_INT(v) ((int)(v))
#define AS_FLOAT(v) as_float(v)
#define IOTA 0
#else
typedef CAT(int, VEC) intv;
typedef CAT(float, VEC) floatv;
#define LOAD_U8(p) CAT(convert_int, VEC)(CAT(vload, VEC)(0, p))
#define LOAD_I(p) CAT(vload, VEC)(0, p)
// Local memory's column sums in one store: PoCL split vstore16 there into 128-bit pieces and
// extracts.
typedef intv intv_a4 __attribute__((aligned(4)));
#define STORE_I(v, p) (*(__local intv_a4 *)(p) = (v))
#define STORE_F(v, p) CAT(vstore, VEC)(v, 0, p)
#define TO_FLOAT(v) CAT(convert_float, VEC)(v)
#define TO_INT(v) CAT(convert_int, VEC)(v)
#define AS_FLOAT(v) CAT(as_float, VEC)(v)
#if VEC == 2
#define IOTA (int2)(0, 1)
#elif VEC == 4
#define IOTA (int4)(0, 1, 2, 3)
#elif VEC == 8
#define IOTA (int8)(0, 1, 2, 3, 4, 5, 6, 7)
#elif VEC == 16
#define IOTA (int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#endif
#endif

#define SQ(a) ((a) * (a))

// 2^x for -126 < x <= 0 to a few parts in 10^7, in plain arithmetic that vectorises (library
// exp is most of the run time on CPU devices): x = n + f, |f| <= 1/2, 2^f by its Taylor series.
floatv exp2_neg(floatv x) {
#if NATIVE_EXP2 == 2 && VEC == 1  // NVIDIA (inline PTX): the ex2 that flushes subnormals, one
  float r;                        // instruction; weights that count are above 1/255 anyway
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
#elif NATIVE_EXP2  // GPUs: the hardware's exp2 (the polynomial's arithmetic bounds the kernel there)
  return native_exp2(x);
#endif
  x = fmax(x, -126.0f);
  const floatv n = (x - 8388608.0f) + 8388608.0f;  // round to nearest (|x| < 2^22)
  const floatv f = x - n;
  floatv p = 1.5403530e-4f;
  p = fma(p, f, 1.3333558e-3f);
  p = fma(p, f, 9.6181291e-3f);
  p = fma(p, f, 5.5504109e-2f);
  p = fma(p, f, 2.4022651e-1f);
  p = fma(p, f, 6.9314718e-1f);
  p = fma(p, f, 1.0f);
  return p * AS_FLOAT((TO_INT(n) + 127) << 23);
}

#ifndef WEIGHTING
#define WEIGHTING 0
#endif
// FTZ_CUTOFF=1 (NVIDIA's flushing exp2, Welsch weights): every weight is scaled by 2^weight_bias,
// the bias putting ssd = max_ssd - 1/2 at 2^-126, so that the weights FFmpeg drops (ssd >= max_ssd)
// come out subnormal and the exp2 flushes them to 0: no compare per weight. The host takes this
// form only where the margin, half a unit of ssd, is well above the argument's rounding.
#ifndef FTZ_CUTOFF
#define FTZ_CUTOFF 0
#endif
// GPUs (the output pass's runs, the hardware's exp2) count the centre as the (0, 0) offset of the
// current frame: its ssd is 0, so its weight is exp2(weight_bias), the scale every weight carries,
// and the loop needs no test to skip it. CPUs (where the bias is 0) add it last, with weight
// exactly 1, in FFmpeg's order.
#define CENTRE_IN_LOOP (NATIVE_EXP2 && SEGS)
#if FTZ_CUTOFF && !CENTRE_IN_LOOP
#error "FTZ_CUTOFF scales the centre's weight too: it needs the centre counted in the loop"
#endif
#if WEIGHTING == 0 && !FTZ_CUTOFF
#define BELOW_MAX(ssd) ((ssd) < max_ssd)
#else  // bisquare weights reach 0 by themselves, flushed ones too
#define BELOW_MAX(ssd) true
#endif
floatv weight_of(floatv ssd, float scale, float bias) {
#if WEIGHTING == 0 && FTZ_CUTOFF
  return exp2_neg(ssd * scale + bias);
#elif WEIGHTING == 0
  return exp2_neg(ssd * scale);
#else
  const floatv b = fmax(1.0f - ssd * scale, 0.0f);
#if WEIGHTING == 1
  return b;
#elif WEIGHTING == 2
  return b * b;
#else
  const floatv b2 = b * b, b4 = b2 * b2;
  return b4 * b4;
#endif
#endif
}

#if TEMPORAL
typedef struct { int at[MAX_FRAMES]; } ring_offsets;
#define SOURCE __global const uchar *src, int src_offset, int src_pitch, ring_offsets frame_offsets, int frames
#define LOAD_TILE(dst, f) load_tile(dst, src, src_offset + frame_offsets.at[f], src_pitch, width, height, x0, y0, lid, channel)
void load_tile(__local sample_t (*dst)[TILE_PITCH], __global const uchar *src, int offset, int pitch, int width, int height,
               int x0, int y0, int lid, int channel) {
  for (int i = lid; i < TILE_H * TILE_W; i += WX) {
    const int ty = i / TILE_W, tx = i % TILE_W;
    const int py = clamp(y0 - HALO + ty, 0, height - 1);
    const int px = clamp(x0 / CH - HALO + tx / CH, 0, width - 1);
    dst[ty][tx] = src[offset + (size_t)py * pitch + LANE_OF(px, tx)];
  }
}
#else
#define SOURCE SRC_PLANE
#endif

__kernel __attribute__((reqd_work_group_size(WX, 1, 1)))
void nlmeans(SOURCE, DST_PLANE, int width, int height, float weight_scale, float weight_bias,
             int max_ssd) {
  __local sample_t tile[TILE_H][TILE_PITCH];
  __local sum_t vsum[TH][VSUM_PITCH];
#if FLOAT_SUMS
#define result vsum  // free once the last offset is done (VSUM_PITCH >= TW)
#else
  __local float result[TH][TW];
#endif
  const int lid = get_local_id(0);
  const int x0 = get_group_id(0) * TW;  // lanes
  const int y0 = get_group_id(1) * TH;
#if TEMPORAL
  __local sample_t other[TILE_H][TILE_PITCH];
#endif
#if PLANAR == 1
  __local uchar first[TH][TW];  // the first channel's outputs while the second's are computed
#endif
  const int first_channel = PLANAR == 2 ? get_group_id(2) : 0;

  _Pragma("unroll 1") for (int channel = first_channel; channel < first_channel + PASSES; ++channel) {
  if (channel != first_channel) barrier(CLK_LOCAL_MEM_FENCE);  // (the tile is read to the end of a pass)
#if TEMPORAL
  LOAD_TILE(tile, 0);
#else
  const int frames = 1;
  for (int i = lid; i < TILE_H * TILE_W; i += WX) {
    const int ty = i / TILE_W, tx = i % TILE_W;
    const int py = clamp(y0 - HALO + ty, 0, height - 1);
    const int px = clamp(x0 / CH - HALO + tx / CH, 0, width - 1);
    tile[ty][tx] = convert_uchar(SRC_LANE(LANE_OF(px, tx), py));
  }
#endif
  barrier(CLK_LOCAL_MEM_FENCE);

#if ONE_ROUND
  // The centre column this work-item slides down in phase A, for every offset.
  const int column = lid + (HALO - PATCH_R) * CH;
  sum_t centre[COLUMN_ROWS];
  _Pragma("unroll") for (int k = 0; k < COLUMN_ROWS; ++k)
    centre[k] = lid < VCHUNKS ? (sum_t)tile[HALO - PATCH_R + k][column] : 0;
#endif

#if SEGS
  float acc[SEG_L], wsum[SEG_L];
  _Pragma("unroll") for (int i = 0; i < SEG_L; ++i) acc[i] = wsum[i] = 0.0f;
  const int by = lid % TH, xl = lid / TH * SEG_L;  // this work-item's row and first lane in phase B
  const bool outputs = lid < TH * SEGS;
  const bool interior = y0 >= SEARCH_R && y0 + TH + SEARCH_R <= height && x0 / CH >= SEARCH_R &&
                        (x0 + TW) / CH + SEARCH_R <= width;
#else
  floatv acc[TH], wsum[TH];
  for (int y = 0; y < TH; ++y) acc[y] = wsum[y] = 0.0f;
  const int xl = lid * VEC;                  // this work-item's first lane in the tile
  const bool outputs = xl < TW;              // (all but the overhang's work-items on GPUs)
  const intv px = (x0 + xl + IOTA) / CH;     // and its output pixels
#endif

  for (int f = 0; f < frames; ++f) {
#if TEMPORAL
  __local sample_t (*cand)[TILE_PITCH] = f ? other : tile;
  if (f) {
    LOAD_TILE(other, f);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#else
#define cand tile
#endif
#if ONE_ROUND
  // GPU shape: offsets column by column, OY_STEP of them at a time (unrolled), so that phase A
  // reads the candidate column once for all of them. (Both branches open two blocks.)
  for (int ox = -SEARCH_R; ox <= SEARCH_R; ++ox)
    for (int oy0 = -SEARCH_R; oy0 <= SEARCH_R; oy0 += OY_STEP) {
      const int cx = column + ox * CH;
      sum_t col[COLUMN_ROWS + OY_STEP - 1];
      if (lid < VCHUNKS)
        _Pragma("unroll") for (int k = 0; k < COLUMN_ROWS + OY_STEP - 1; ++k)
          col[k] = (sum_t)cand[CANDIDATE_ROW(HALO - PATCH_R + k + oy0)][cx];
      _Pragma("unroll") for (int u = 0; u < OY_STEP; ++u) {
        const int oy = oy0 + u;
        if (oy > SEARCH_R) break;
#else
  for (int oy = -SEARCH_R; oy <= SEARCH_R; ++oy)
    for (int ox = -SEARCH_R; ox <= SEARCH_R; ++ox) {
      {
#endif
#if !CENTRE_IN_LOOP
      if (ox == 0 && oy == 0 && f == 0) continue;  // the centre counts once, with weight 1, below
#endif
#if ONE_ROUND
      // This work-item's column only; the centre column is in registers. Float sums add and
      // remove each square by a multiply-add (fewer instructions than squaring each once, the
      // integer form).
      if (lid < VCHUNKS) {
#if FLOAT_SUMS  // every square and partial sum is an integer below 2^24: exact in any order
        float d[COLUMN_ROWS];
        _Pragma("unroll") for (int k = 0; k < COLUMN_ROWS; ++k) d[k] = centre[k] - col[k + u];
        float s = 0.0f;
        _Pragma("unroll") for (int k = 0; k < PATCH; ++k) s = fma(d[k], d[k], s);
        vsum[0][lid] = s;
        _Pragma("unroll") for (int y = 1; y < TH; ++y) {
          s = fma(d[y + PATCH - 1], d[y + PATCH - 1], s);
          s = fma(-d[y - 1], d[y - 1], s);
          vsum[y][lid] = s;
        }
#else
        sum_t d[COLUMN_ROWS];
        _Pragma("unroll") for (int k = 0; k < COLUMN_ROWS; ++k) d[k] = SQ(centre[k] - col[k + u]);
        sum_t s = 0;
        _Pragma("unroll") for (int k = 0; k < PATCH; ++k) s += d[k];
        vsum[0][lid] = s;
        _Pragma("unroll") for (int y = 1; y < TH; ++y) {
          s += d[y + PATCH - 1] - d[y - 1];
          vsum[y][lid] = s;
        }
#endif
      }
#else
      for (int chunk = lid; chunk < VCHUNKS; chunk += WX) {
        const int tx = chunk * VEC + (HALO - PATCH_R) * CH, cx = tx + ox * CH;
#define D(row) SQ(LOAD_U8(&tile[row][tx]) - LOAD_U8(&cand[(row) + oy][cx]))
        intv s = 0;
        for (int k = HALO - PATCH_R; k <= HALO + PATCH_R; ++k) s += D(k);
        STORE_I(s, &vsum[0][chunk * VEC]);
        for (int y = 1; y < TH; ++y) {
          s += D(HALO + y + PATCH_R) - D(HALO + y - 1 - PATCH_R);
          STORE_I(s, &vsum[y][chunk * VEC]);
        }
#undef D
      }
#endif
      barrier(CLK_LOCAL_MEM_FENCE);
#if SEGS
      if (outputs) {
        const int cy = y0 + by + oy;
        const bool row_inside = cy >= 0 && cy < height;
        __local const sum_t *v = vsum[by] + xl;
        __local const sample_t *c = cand[HALO + by + oy] + xl + (HALO + ox) * CH;
        sum_t ssd[SEG_L];
        _Pragma("unroll") for (int i = 0; i < SEG_L; ++i) {
          if (i < CH) {
            ssd[i] = v[i];
            _Pragma("unroll") for (int j = 1; j < PATCH; ++j) ssd[i] += v[i + j * CH];
          } else {
            ssd[i] = ssd[i - CH] + (v[i + (PATCH - 1) * CH] - v[i - CH]);  // one add on the chain
          }
        }
        // Tiles whose research window lies inside the plane (most of them) skip the edge tests.
#define ACCUMULATE_RUN(edges)                                                                      \
        _Pragma("unroll") for (int i = 0; i < SEG_L; ++i) {                                        \
          const int p = (x0 + xl + i) / CH + ox;                                                   \
          const bool use = (!(edges) || (row_inside && p >= 0 && p < width)) && BELOW_MAX(ssd[i]); \
          const float w = weight_of((float)ssd[i], weight_scale, weight_bias);                     \
          if (use) {  /* (predicated: no select of w or 0) */                                      \
            acc[i] += w * (float)c[i];                                                             \
            wsum[i] += w;                                                                          \
          }                                                                                        \
        }
        if (interior) {
          ACCUMULATE_RUN(0)
        } else {
          ACCUMULATE_RUN(1)
        }
#undef ACCUMULATE_RUN
      }
#else
      const intv x_inside = px + ox >= 0 && px + ox < width;
      for (int y = 0; y < TH && outputs; ++y) {
        intv ssd = 0;
        for (int j = 0; j < PATCH; ++j) ssd += LOAD_I(&vsum[y][xl + j * CH]);
        const int cy = y0 + y + oy;
        const intv use = x_inside && (intv)(cy >= 0 && cy < height) && ssd < max_ssd;
        const floatv w = select((floatv)0.0f, weight_of(TO_FLOAT(ssd), weight_scale, 0.0f), use);
        acc[y] += w * TO_FLOAT(LOAD_U8(&cand[HALO + y + oy][xl + (HALO + ox) * CH]));
        wsum[y] += w;
      }
#endif
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  }

#if SEGS
  if (outputs)
    _Pragma("unroll") for (int i = 0; i < SEG_L; ++i) {
#if CENTRE_IN_LOOP
      const int out = clamp((int)(acc[i] / wsum[i] + 0.5f), 0, 255);
#else
      const float centre = (float)tile[HALO + by][xl + i + HALO * CH];
      const int out = clamp((int)((acc[i] + centre) / (wsum[i] + 1.0f) + 0.5f), 0, 255);
#endif
#if PLANAR == 1
      if (!channel)
        first[by][xl + i] = (uchar)out;
      else
#endif
        result[by][xl + i] = (float)out;
    }
#else
  for (int y = 0; y < TH && outputs; ++y) {
    const floatv centre = TO_FLOAT(LOAD_U8(&tile[HALO + y][xl + HALO * CH]));
    STORE_F(TO_FLOAT(clamp(TO_INT((acc[y] + centre) / (wsum[y] + 1.0f) + 0.5f), 0, 255)), &result[y][xl]);
  }
#endif
  }  // channels
  barrier(CLK_LOCAL_MEM_FENCE);
  // Stored a pixel (CH lanes) at a time, as images need (PLANAR=2: this work-group's lane of each).
  for (int i = lid; i < TH * (TW / CH); i += WX) {
    const int y = i / (TW / CH), x = i % (TW / CH);
    const int gx = x0 / CH + x, gy = y0 + y;
    if (gx < width && gy < height) {
#if PLANAR == 2
      dst[dst_offset + (size_t)gy * dst_pitch + gx * CHANNELS + first_channel] = (uchar)result[y][x];
#elif PLANAR == 1
      DST_STORE_PIX(gx, gy, (float2)(first[y][x], result[y][x]));
#elif CH == 1
      DST_STORE_PIX(gx, gy, result[y][x]);
#else
      DST_STORE_PIX(gx, gy, vload2(x, result[y]));
#endif
    }
  }
}
