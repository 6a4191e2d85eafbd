#!/usr/bin/env bash
# Benchmark (not a test): frames per second of scale_clvf and of FFmpeg's own scalers for 1080p
# -> 720p NV12, one run, same machine, same source; scale_clvf also with async_depth=3 (frames
# kept in flight between FFmpeg's calls)
# (bench/fps_lib.sh: steady-state fps, and the seconds to the first frames), ratios to swscale.
#   bash bench/scale_fps.sh [frames]      CLVF_DEVICE picks the OpenCL device (default: default)
set -euo pipefail
N=${1:-300}
source "$(dirname "$0")/fps_lib.sh"
source "$(dirname "$0")/plot.sh"

declare -A fps
rows=(
  "swscale bicubic|scale=1280:720:flags=bicubic"
  "zscale bicubic|zscale=w=1280:h=720:filter=bicubic"
  "zscale spline36|zscale=w=1280:h=720:filter=spline36"
  "scale_clvf bicubic|scale_clvf=w=1280:h=720:algorithm=bicubic"
  "scale_clvf bilinear|scale_clvf=w=1280:h=720:algorithm=bilinear"
  "scale_clvf spline36|scale_clvf=w=1280:h=720:algorithm=spline36"
  "scale_clvf bicubic, async_depth=3|scale_clvf=w=1280:h=720:algorithm=bicubic:async_depth=3"
  "scale_clvf spline36, async_depth=3|scale_clvf=w=1280:h=720:algorithm=spline36:async_depth=3"
)
printf "1080p -> 720p NV12, %d frames, %s, device: %s\n" "$N" "$(nproc) cores" "${CLVF_DEVICE:-default}"
printf "%-36s %10s %14s %16s %10s\n" "scaler" "fps" "vs swscale" "vs zscale same" "startup s"
table=$(mktemp)
for row in "${rows[@]}"; do
  name=${row%%|*}; chain=${row#*|}
  read -r f startup <<< "$(fps_of "$chain" "$N")"
  fps[$name]=$f
  ref=${fps[swscale bicubic]:-}
  if [ -n "$ref" ]; then r=$(ratio "$f" "$ref"); else r="-"; fi
  same="${name/scale_clvf/zscale}" same=${same%, async*}
  if [ "$same" != "$name" ] && [ -n "${fps[$same]:-}" ]; then
    zratio=$(ratio "$f" "${fps[$same]}")
  else zratio="-"; fi
  printf "%-36s %10s %14s %16s %10s\n" "$name" "$f" "$r" "$zratio" "$startup"
  printf "%s\t%s\n" "$name" "$f" >> "$table"
done
plot_rows "1080p -> 720p NV12, $(nproc) cores, device ${CLVF_DEVICE:-default}" \
  "${CLVF_BUILD_DIR:-$ROOT/build}/bench/scale_fps.png" "$table"
rm -f "$table"
