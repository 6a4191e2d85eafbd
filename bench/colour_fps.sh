#!/usr/bin/env bash
# Benchmark (not a test): frames per second of colorspace_clvf and of FFmpeg's CPU converters
# (zscale, colorspace) for 1080p BT.601 -> BT.709, P010 -> NV12, P010 -> 720p NV12 with the
# scale in the same filter, and 4K P010 -> 1080p NV12 likewise (NV12 also with async_depth=3:
# frames kept in flight between FFmpeg's calls). One run, same machine, same
# source (bench/fps_lib.sh: steady-state fps, and the seconds to the first frames); ratios to zscale
# on the same source format. Each zscale row and the rows compared with it take turns (fps_rows),
# FPS_RUNS rounds (default 3).
#   bash bench/colour_fps.sh [frames]      CLVF_DEVICE picks the OpenCL device (default: default)
set -euo pipefail
N=${1:-300}
source "$(dirname "$0")/fps_lib.sh"
source "$(dirname "$0")/plot.sh"

declare -A fps
# source format[@size, else 1080p] | name | chain | the row it is compared with
z="zscale=matrixin=470bg:matrix=709:dither=none:filter=bilinear"
rows=(
  "nv12|zscale, nv12 (via yuv420p)|format=yuv420p,$z,format=nv12|"
  "nv12|colorspace_clvf, nv12|colorspace_clvf=in_matrix=bt601:matrix=bt709|zscale, nv12 (via yuv420p)"
  "nv12|colorspace_clvf, nv12, async_depth=3|colorspace_clvf=in_matrix=bt601:matrix=bt709:async_depth=3|zscale, nv12 (via yuv420p)"
  "yuv420p|zscale, yuv420p|$z|"
  "yuv420p|colorspace (CPU), yuv420p|colorspace=iall=bt601-6-625:all=bt709:fast=1|zscale, yuv420p"
  "yuv420p|colorspace_clvf, yuv420p|colorspace_clvf=in_matrix=bt601:matrix=bt709|zscale, yuv420p"
  "yuv420p10le|zscale, yuv420p10 -> yuv420p|zscale=matrixin=2020_ncl:matrix=709:dither=ordered,format=yuv420p|"
  "p010le|colorspace_clvf, p010 -> nv12|colorspace_clvf=in_matrix=bt2020nc:matrix=bt709:format=nv12|zscale, yuv420p10 -> yuv420p"
  "yuv420p10le|zscale, + 720p spline36|zscale=w=1280:h=720:filter=spline36:matrixin=2020_ncl:matrix=709:dither=ordered,format=yuv420p|"
  "p010le|scale_clvf, p010 -> 720p nv12|scale_clvf=w=1280:h=720:algorithm=spline36:in_matrix=bt2020nc:matrix=bt709:format=nv12|zscale, + 720p spline36"
  "yuv420p10le@3840x2160|zscale, 4K -> 1080p spline36|zscale=w=1920:h=1080:filter=spline36:matrixin=2020_ncl:matrix=709:dither=ordered,format=yuv420p|"
  "p010le@3840x2160|scale_clvf, 4K p010 -> 1080p nv12|scale_clvf=w=1920:h=1080:algorithm=spline36:in_matrix=bt2020nc:matrix=bt709:format=nv12|zscale, 4K -> 1080p spline36"
)
printf "1080p BT.601 -> BT.709 (and 10 -> 8 bit), %d frames, %s, device: %s\n" "$N" "$(nproc) cores" "${CLVF_DEVICE:-default}"
printf "%-40s %10s %12s %10s\n" "converter" "fps" "vs zscale" "startup s"
table=$(mktemp)
# Each reference row and the rows compared with it take turns (fps_groups); then the table in the
# rows' order.
declare -A measured
mapfile -t results < <(for row in "${rows[@]}"; do
  IFS='|' read -r fmt name chain ref <<< "$row"
  size=1920x1080
  [[ $fmt == *@* ]] && size=${fmt#*@} fmt=${fmt%@*}
  printf '%s\t%s\n' "${ref:-$name}" "|$size|$fmt|$chain"
done | fps_groups "$N")
for k in "${!rows[@]}"; do measured[${rows[k]}]=${results[k]}; done
for row in "${rows[@]}"; do
  IFS='|' read -r _ name _ ref <<< "$row"
  read -r f startup <<< "${measured[$row]}"
  fps[$name]=$f
  if [ -n "$ref" ]; then r=$(ratio "$f" "${fps[$ref]}"); else r="-"; fi
  printf "%-40s %10s %12s %10s\n" "$name" "$f" "$r" "$startup"
  printf "%s\t%s\n" "$name" "$f" >> "$table"
done
plot_rows "1080p BT.601 -> BT.709, $(nproc) cores, device ${CLVF_DEVICE:-default}" \
  "${CLVF_BUILD_DIR:-$ROOT/build}/bench/colour_fps.png" "$table"
rm -f "$table"
