#!/usr/bin/env bash
# Benchmark (not a test): what host buffers save. Each chain runs with the filters' outputs in host
# buffers (the default where the device has them: PoCL) and in FFmpeg's frames, mapped after each
# frame's kernels (CLVF_NO_HOST_BUFFERS=1), the two taking turns ROUNDS times so that a busy spell
# on a shared machine falls on both (bench/fps_lib.sh's fps_rows: the source one frame made in
# the graph and looped).
#   bash bench/host_buffers_fps.sh [frames] [rounds]     (default 1500 frames, 8 rounds)
set -euo pipefail
N=${1:-1500}
ROUNDS=${2:-8}
source "$(dirname "$0")/fps_lib.sh"
source "$(dirname "$0")/plot.sh"
chains=(scale_clvf=w=1280:h=720:algorithm=spline36 scale_clvf=w=1280:h=720:algorithm=bicubic
        colorspace_clvf=matrix=bt709:in_matrix=bt601)
printf "%d frames, fastest of %d alternated rounds, %s cores, yuv420p 1080p\n" "$N" "$ROUNDS" "$(nproc)"
printf "%-48s %14s %14s %8s\n" "chain" "FFmpeg frames" "host buffers" "ratio"
table=$(mktemp)
for c in "${chains[@]}"; do
  { read -r m _; read -r b _; } < <(FPS_RUNS=$ROUNDS fps_rows "$N" "CLVF_NO_HOST_BUFFERS=1|1920x1080|yuv420p|$c" \
                                                              "CLVF_NO_HOST_BUFFERS=0|1920x1080|yuv420p|$c")
  m=${m%.*} b=${b%.*}
  printf "%-48s %14s %14s %8s\n" "$c" "$m" "$b" "$(ratio "$b" "$m")"
  printf "%s, FFmpeg's frames\t%s\n%s, host buffers\t%s\n" "${c%%=*} ${c##*=}" "$m" "${c%%=*} ${c##*=}" "$b" >> "$table"
done
plot_rows "host buffers against FFmpeg's frames, $(nproc) cores, device ${CLVF_DEVICE:-default}" \
  "${CLVF_BUILD_DIR:-$ROOT/build}/bench/host_buffers_fps.png" "$table"
rm -f "$table"
