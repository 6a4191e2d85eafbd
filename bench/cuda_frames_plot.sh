#!/usr/bin/env bash
# Draws the frame rates tests/gpu/cuda_frames.sh measured on the NVIDIA machine (its
# cuda_fps.csv, kept as docs/cuda-frames-h200.csv) as docs/img/cuda-frames-h200.png.
# Usage: bench/cuda_frames_plot.sh [CSV]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CSV=${1:-$ROOT/docs/cuda-frames-h200.csv}
source "$ROOT/bench/plot.sh"
rows=$(mktemp)
# Labels hold commas: the input and the rate are the last two fields.
tail -n +2 "$CSV" | awk -F, '$NF != "nan" {
  label = $1; for (i = 2; i <= NF - 2; i++) label = label "," $i
  printf "%s: %s\t%s\n", $(NF - 1) == "h264" ? "1080p H.264" : "4K HEVC", label, $NF }' > "$rows"
plot_rows "NVIDIA H200: NVDEC frames through the filters (fps)" \
  "$ROOT/docs/img/cuda-frames-h200.png" "$rows" log
rm -f "$rows"
