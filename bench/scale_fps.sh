#!/usr/bin/env bash
# Benchmark (not a test): frames per second of scale_clvf and of FFmpeg's own scalers for 1080p
# -> 720p NV12, one run, same machine, same input held in memory, ratios to swscale.
#   bash bench/scale_fps.sh [frames]      CLVF_DEVICE picks the OpenCL device (default: default)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FF=${CLVF_BUILD_DIR:-$ROOT/build}/bin/ffmpeg
N=${1:-300}
[ -x "$FF" ] || { echo "bench: $FF missing; run scripts/build.sh" >&2; exit 1; }

# Frames come from a looped still (decoded once) so the source costs almost nothing; the null
# muxer takes the output. Each line: the -vf chain after the source.
SRC="-f lavfi -i testsrc2=size=1920x1080:rate=30,noise=alls=10:allf=t+u,format=nv12,trim=end_frame=1,loop=loop=-1:size=1,settb=1/30,setpts=N"
fps_of() {
  local chain=$1 t0 t1
  "$FF" -hide_banner -nostdin -loglevel error $SRC -vf "$chain" -frames:v 5 -f null - # warm (kernel cache)
  t0=$(date +%s.%N)
  "$FF" -hide_banner -nostdin -loglevel error $SRC -vf "$chain" -frames:v "$N" -f null -
  t1=$(date +%s.%N)
  awk -v n="$N" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", n / (b - a) }'
}

base=$(fps_of "null")
declare -A fps
rows=(
  "source only (no scaling)|null"
  "swscale bicubic|scale=1280:720:flags=bicubic"
  "zscale bicubic|zscale=w=1280:h=720:filter=bicubic"
  "zscale spline36|zscale=w=1280:h=720:filter=spline36"
  "scale_clvf bicubic|scale_clvf=w=1280:h=720:algorithm=bicubic"
  "scale_clvf bilinear|scale_clvf=w=1280:h=720:algorithm=bilinear"
  "scale_clvf spline36|scale_clvf=w=1280:h=720:algorithm=spline36"
)
printf "1080p -> 720p NV12, %d frames, %s, device: %s\n" "$N" "$(nproc) cores" "${CLVF_DEVICE:-default}"
printf "%-28s %10s %14s %16s\n" "scaler" "fps" "vs swscale" "vs zscale same"
for row in "${rows[@]}"; do
  name=${row%%|*}; chain=${row#*|}
  [ "$chain" = null ] && f=$base || f=$(fps_of "$chain")
  fps[$name]=$f
  ref=${fps[swscale bicubic]:-}
  if [ -n "$ref" ]; then ratio=$(awk -v a="$f" -v b="$ref" 'BEGIN { printf "%.2fx", a / b }'); else ratio="-"; fi
  same="${name/scale_clvf/zscale}"
  if [ "$same" != "$name" ] && [ -n "${fps[$same]:-}" ]; then
    zratio=$(awk -v a="$f" -v b="${fps[$same]}" 'BEGIN { printf "%.2fx", a / b }')
  else zratio="-"; fi
  printf "%-28s %10s %14s %16s\n" "$name" "$f" "$ratio" "$zratio"
done
