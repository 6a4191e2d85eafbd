#!/usr/bin/env bash
# Tuning aid (not a test): 1080p NV12 denoise p=7 r=15 kernel time for work-group shapes
# WX,VEC,LANES,ROWS[,RUNS] (CLVF_DENOISE_SHAPE; LANES is cut to one round of the column pass;
# RUNS, with VEC 1, gives the output pass runs of lanes: 1 as many as fit the work-items, the GPU
# default; more, that many runs a row, each a whole number of pixels).
#   bash bench/denoise_shapes.sh [frames] [shape ...]
set -euo pipefail
BIN=${THROUGHPUT:-$(cd "$(dirname "$0")/.." && pwd)/build/bin/throughput}
N=${1:-100}; shift || true
shapes=("$@")
[ ${#shapes[@]} -gt 0 ] || shapes=(128,1,256,12,1 128,1,256,10,1 128,1,256,14,1 64,1,256,8,1 128,1,256,12 64,1,256,8 32,4,1024,8 64,4,1024,8 64,4,1024,4 64,4,1024,16 128,4,1024,8 32,8,1024,8 64,8,1024,8 64,2,1024,8)
printf "%-16s %12s\n" "WX,VEC,LANES,ROWS[,RUNS]" "ms/frame"
for s in "${shapes[@]}"; do
  ms=$(CLVF_DENOISE_SHAPE=$s "$BIN" denoise 4:7:15 "$N" | awk '/cl buffers \(kernels only\)/ {print $(NF-3)}')
  printf "%-16s %12s\n" "$s" "$ms"
done
