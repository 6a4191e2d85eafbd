#!/usr/bin/env bash
# Benchmark (not a test): what host buffers save. Each chain runs with the filters' outputs in host
# buffers (the default where the device has them: PoCL) and in FFmpeg's frames, mapped after each
# frame's kernels (CLVF_NO_HOST_BUFFERS=1), the two alternated ROUNDS times so that a busy spell on
# a shared machine falls on both. A whole run of FRAMES and one of 2 frames are timed each round;
# the fastest of each gives fps = (FRAMES - 2) / (long - short), as bench/fps_lib.sh does (the
# source there: one frame made in the graph and looped).
#   bash bench/host_buffers_fps.sh [frames] [rounds]     (default 1500 frames, 8 rounds)
set -euo pipefail
N=${1:-1500}
ROUNDS=${2:-8}
source "$(dirname "$0")/fps_lib.sh"
source "$(dirname "$0")/plot.sh"
export SRC_FMT=yuv420p
chains=(scale_clvf=w=1280:h=720:algorithm=spline36 scale_clvf=w=1280:h=720:algorithm=bicubic
        colorspace_clvf=matrix=bt709:in_matrix=bt601)
fastest() { tr ' ' '\n' <<< "$1" | grep -v '^$' | sort -g | head -1; }
printf "%d frames, fastest of %d alternated rounds, %s cores, yuv420p 1080p\n" "$N" "$ROUNDS" "$(nproc)"
printf "%-48s %14s %14s %8s\n" "chain" "FFmpeg frames" "host buffers" "ratio"
table=$(mktemp)
for c in "${chains[@]}"; do
  declare -A long=() short=()
  for _ in $(seq "$ROUNDS"); do
    for mode in mapped buffers; do
      off=$([ $mode = mapped ] && echo 1 || echo 0)
      long[$mode]+="$(CLVF_NO_HOST_BUFFERS=$off run_seconds "$c" "$N") "
      short[$mode]+="$(CLVF_NO_HOST_BUFFERS=$off run_seconds "$c" 2) "
    done
  done
  fps() { awk -v a="$(fastest "${long[$1]}")" -v b="$(fastest "${short[$1]}")" -v n="$N" 'BEGIN { printf "%.0f", (n - 2) / (a - b) }'; }
  m=$(fps mapped) b=$(fps buffers)
  printf "%-48s %14s %14s %8s\n" "$c" "$m" "$b" "$(ratio "$b" "$m")"
  printf "%s, FFmpeg's frames\t%s\n%s, host buffers\t%s\n" "${c%%=*} ${c##*=}" "$m" "${c%%=*} ${c##*=}" "$b" >> "$table"
done
plot_rows "host buffers against FFmpeg's frames, $(nproc) cores, device ${CLVF_DEVICE:-default}" \
  "${CLVF_BUILD_DIR:-$ROOT/build}/bench/host_buffers_fps.png" "$table"
rm -f "$table"
