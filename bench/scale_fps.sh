#!/usr/bin/env bash
# Benchmark (not a test): frames per second of scale_clvf and of FFmpeg's own scalers for 1080p
# -> 720p NV12 and yuv420p, 720p -> 1080p, 1080p -> 1366x768 and -> 854x480 yuv420p, one run,
# same machine, same source; scale_clvf also with
# async_depth=3 (frames kept in flight between FFmpeg's calls), and once with its outputs in
# FFmpeg's frames instead of host buffers (CLVF_NO_HOST_BUFFERS=1) (bench/fps_lib.sh: steady-state
# fps, and the seconds to the first frames), ratios to swscale and to zscale with the same filter.
# The rows of one size and format take turns (fps_rows), FPS_RUNS rounds (default 3).
#   bash bench/scale_fps.sh [frames]      CLVF_DEVICE picks the OpenCL device (default: default)
set -euo pipefail
N=${1:-1000}
source "$(dirname "$0")/fps_lib.sh"
source "$(dirname "$0")/plot.sh"

declare -A fps
# size|format|scaler|chain[|environment]. zimg has no NV12: on NV12 FFmpeg puts a swscale conversion to yuv420p in
# front of zscale (its auto_scale filter), so zscale's NV12 rows count that conversion too; the
# yuv420p rows (what FFmpeg's software decoders give) compare the scalers alone. After the 1080p
# -> 720p rows: the common upscale 720p -> 1080p, and 1080p -> 1366x768 and -> 854x480, ratios
# with no short pattern (on CPUs the phase kernel's taps form). The row with CLVF_NO_HOST_BUFFERS=1
# has the filter's outputs in FFmpeg's frames, mapped after each frame's kernels, instead of the
# host buffers it takes where the device has them (PoCL).
rows=(
  "1080p->720p|nv12|swscale bicubic|scale=1280:720:flags=bicubic"
  "1080p->720p|nv12|zscale bicubic|zscale=w=1280:h=720:filter=bicubic"
  "1080p->720p|nv12|zscale spline36|zscale=w=1280:h=720:filter=spline36"
  "1080p->720p|nv12|scale_clvf bicubic|scale_clvf=w=1280:h=720:algorithm=bicubic"
  "1080p->720p|nv12|scale_clvf bilinear|scale_clvf=w=1280:h=720:algorithm=bilinear"
  "1080p->720p|nv12|scale_clvf spline36|scale_clvf=w=1280:h=720:algorithm=spline36"
  "1080p->720p|nv12|scale_clvf bicubic, async_depth=3|scale_clvf=w=1280:h=720:algorithm=bicubic:async_depth=3"
  "1080p->720p|nv12|scale_clvf spline36, async_depth=3|scale_clvf=w=1280:h=720:algorithm=spline36:async_depth=3"
  "1080p->720p|yuv420p|swscale bicubic|scale=1280:720:flags=bicubic"
  "1080p->720p|yuv420p|zscale bicubic|zscale=w=1280:h=720:filter=bicubic"
  "1080p->720p|yuv420p|zscale spline36|zscale=w=1280:h=720:filter=spline36"
  "1080p->720p|yuv420p|scale_clvf bicubic|scale_clvf=w=1280:h=720:algorithm=bicubic"
  "1080p->720p|yuv420p|scale_clvf spline36|scale_clvf=w=1280:h=720:algorithm=spline36"
  "1080p->720p|yuv420p|scale_clvf spline36, FFmpeg's frames|scale_clvf=w=1280:h=720:algorithm=spline36|CLVF_NO_HOST_BUFFERS=1"
  "1080p->720p|yuv420p|scale_clvf bicubic, async_depth=3|scale_clvf=w=1280:h=720:algorithm=bicubic:async_depth=3"
  "1080p->720p|yuv420p|scale_clvf spline36, async_depth=3|scale_clvf=w=1280:h=720:algorithm=spline36:async_depth=3"
  "720p->1080p|yuv420p|swscale bicubic|scale=1920:1080:flags=bicubic"
  "720p->1080p|yuv420p|zscale spline36|zscale=w=1920:h=1080:filter=spline36"
  "720p->1080p|yuv420p|scale_clvf bicubic|scale_clvf=w=1920:h=1080:algorithm=bicubic"
  "720p->1080p|yuv420p|scale_clvf spline36|scale_clvf=w=1920:h=1080:algorithm=spline36"
  "1080p->1366x768|yuv420p|swscale bicubic|scale=1366:768:flags=bicubic"
  "1080p->1366x768|yuv420p|zscale spline36|zscale=w=1366:h=768:filter=spline36"
  "1080p->1366x768|yuv420p|scale_clvf bicubic|scale_clvf=w=1366:h=768:algorithm=bicubic"
  "1080p->1366x768|yuv420p|scale_clvf spline36|scale_clvf=w=1366:h=768:algorithm=spline36"
  "1080p->854x480|yuv420p|swscale bicubic|scale=854:480:flags=bicubic"
  "1080p->854x480|yuv420p|zscale spline36|zscale=w=854:h=480:filter=spline36"
  "1080p->854x480|yuv420p|scale_clvf bicubic|scale_clvf=w=854:h=480:algorithm=bicubic"
  "1080p->854x480|yuv420p|scale_clvf spline36|scale_clvf=w=854:h=480:algorithm=spline36"
)
printf "%d frames, fastest of %d rounds taken in turns, %s, device: %s (zscale on nv12: through a swscale conversion to yuv420p)\n" \
  "$N" "${FPS_RUNS:-3}" "$(nproc) cores" "${CLVF_DEVICE:-default}"
printf "%-58s %10s %14s %16s %10s\n" "scaler" "fps" "vs swscale" "vs zscale same" "startup s"
table=$(mktemp)
# The rows of each size and format, in turns; then the table in the rows' order.
declare -A measured
mapfile -t results < <(for row in "${rows[@]}"; do
  IFS='|' read -r size fmt _ chain environment <<< "$row"
  src=1920x1080
  [ "${size%%->*}" = 720p ] && src=1280x720
  printf '%s\t%s\n' "$size|$fmt" "$environment|$src|$fmt|$chain"
done | fps_groups "$N")
for k in "${!rows[@]}"; do measured[${rows[k]}]=${results[k]}; done
for row in "${rows[@]}"; do
  IFS='|' read -r size fmt scaler chain environment <<< "$row"
  name="$scaler, $fmt, $size"
  read -r f startup <<< "${measured[$row]}"
  fps[$name]=$f
  ref=${fps[swscale bicubic, $fmt, $size]:-}
  if [ -n "$ref" ] && [ "$scaler" != "swscale bicubic" ]; then r=$(ratio "$f" "$ref"); else r="-"; fi
  same="${scaler/scale_clvf/zscale}" same="${same%%, *}, $fmt, $size"
  if [ "$same" != "$name" ] && [ -n "${fps[$same]:-}" ]; then
    zratio=$(ratio "$f" "${fps[$same]}")
  else zratio="-"; fi
  printf "%-58s %10s %14s %16s %10s\n" "$name" "$f" "$r" "$zratio" "$startup"
  printf "%s\t%s\n" "$name" "$f" >> "$table"
done
plot_rows "scale, $(nproc) cores, device ${CLVF_DEVICE:-default}" \
  "${CLVF_BUILD_DIR:-$ROOT/build}/bench/scale_fps.png" "$table"
rm -f "$table"
