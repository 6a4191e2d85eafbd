// Non-local means, with the weights of FFmpeg's nlmeans: for every offset o of the research
// window but (0, 0), ssd = sum over the patch of squared differences (edge samples repeated),
// w = exp(-ssd / h^2) when ssd < max_ssd (else 0), only where p + o lies inside the plane;
// out = (sum w * I(p + o) + I(p)) / (sum w + 1), rounded half up.
//
// A work-group owns a tile of TW lanes x TH rows (TW = WX work-items, one output column each)
// and holds the source around it in local memory. Per offset:
//   A  every column of the tile plus the patch's overhang gets its vertical patch sums of
//      squared differences for all TH rows, sliding down the column (2 new squares per row);
//   B  every work-item adds 2*PATCH_R+1 of those column sums for each of its TH outputs and
//      accumulates the weighted candidate.
// Sums of squares are integers (exact for any patch size); accumulation is in float, in
// FFmpeg's order, without contraction, so results match it to the last bit almost everywhere.
//
// Build options: CHANNELS, SRC_IMAGE, DST_IMAGE (plane.h), PATCH_R, SEARCH_R (radii in pixels),
// WX (= TW), TH.
#pragma OPENCL FP_CONTRACT OFF

#define CH CHANNELS
#define TW WX
#define HALO (PATCH_R + SEARCH_R)
#define TILE_W (TW + 2 * HALO * CH)
#define TILE_H (TH + 2 * HALO)
#define VCOLS (TW + 2 * PATCH_R * CH)
#define PATCH (2 * PATCH_R + 1)

#define SQ(a) ((a) * (a))

__kernel __attribute__((reqd_work_group_size(WX, 1, 1)))
void nlmeans(SRC_PLANE, DST_PLANE, int width, int height, float neg_inv_h2, int max_ssd) {
  __local uchar tile[TILE_H][TILE_W];
  __local int vsum[TH][VCOLS];
  __local float result[TH][TW];
  const int lid = get_local_id(0);
  const int x0 = get_group_id(0) * TW;  // lanes
  const int y0 = get_group_id(1) * TH;

  for (int i = lid; i < TILE_H * TILE_W; i += WX) {
    const int ty = i / TILE_W, tx = i % TILE_W;
    const int py = clamp(y0 - HALO + ty, 0, height - 1);
    const int px = clamp(x0 / CH - HALO + tx / CH, 0, width - 1);
    tile[ty][tx] = convert_uchar(SRC_LANE(px * CH + tx % CH, py));
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  float acc[TH], wsum[TH];
  for (int y = 0; y < TH; ++y) acc[y] = wsum[y] = 0.0f;
  const int px = (x0 + lid) / CH;  // this work-item's output pixel

  for (int oy = -SEARCH_R; oy <= SEARCH_R; ++oy) {
    for (int ox = -SEARCH_R; ox <= SEARCH_R; ++ox) {
      if (ox == 0 && oy == 0) continue;  // the centre counts once, with weight 1, below
      for (int c = lid; c < VCOLS; c += WX) {
        const int tx = c + (HALO - PATCH_R) * CH, cx = tx + ox * CH;
        int s = 0;
        for (int k = HALO - PATCH_R; k <= HALO + PATCH_R; ++k) s += SQ((int)tile[k][tx] - (int)tile[k + oy][cx]);
        vsum[0][c] = s;
        for (int y = 1; y < TH; ++y) {
          const int in = HALO + y + PATCH_R, out = HALO + y - 1 - PATCH_R;
          s += SQ((int)tile[in][tx] - (int)tile[in + oy][cx]) - SQ((int)tile[out][tx] - (int)tile[out + oy][cx]);
          vsum[y][c] = s;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      const bool x_inside = px + ox >= 0 && px + ox < width;
      for (int y = 0; y < TH; ++y) {
        int ssd = 0;
        for (int j = 0; j < PATCH; ++j) ssd += vsum[y][lid + j * CH];
        const int cy = y0 + y + oy;
        const float w = (x_inside && cy >= 0 && cy < height && ssd < max_ssd) ? exp(ssd * neg_inv_h2) : 0.0f;
        acc[y] += w * (float)tile[HALO + y + oy][lid + (HALO + ox) * CH];
        wsum[y] += w;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }

  for (int y = 0; y < TH; ++y) {
    const float centre = tile[HALO + y][lid + HALO * CH];
    result[y][lid] = (float)clamp(convert_int((acc[y] + centre) / (wsum[y] + 1.0f) + 0.5f), 0, 255);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // Stored a pixel (CH lanes) at a time, as images need.
  for (int i = lid; i < TH * (TW / CH); i += WX) {
    const int y = i / (TW / CH), x = i % (TW / CH);
    const int gx = x0 / CH + x, gy = y0 + y;
    if (gx < width && gy < height) {
#if CH == 1
      DST_STORE_PIX(gx, gy, result[y][x]);
#else
      DST_STORE_PIX(gx, gy, vload2(x, result[y]));
#endif
    }
  }
}
