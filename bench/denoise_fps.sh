#!/usr/bin/env bash
# Benchmark (not a test): frames per second of denoise_clvf and of FFmpeg's NL-means filters on
# 1080p yuv420p at nlmeans' default sizes (p=7, r=15), one run, same machine, same source
# (bench/fps_lib.sh: steady-state fps, and the seconds to the first frames); ratios to nlmeans (CPU)
# and nlmeans_opencl (same OpenCL device).
#   bash bench/denoise_fps.sh [frames]     CLVF_DEVICE picks the device (default: default);
#   OCL_DEVICE (default 0.0) is nlmeans_opencl's -init_hw_device opencl=ocl:P.D
set -euo pipefail
N=${1:-10}
SRC_FMT=yuv420p  # nlmeans takes planar formats only
source "$(dirname "$0")/fps_lib.sh"
source "$(dirname "$0")/plot.sh"
OCL="-init_hw_device opencl=ocl:${OCL_DEVICE:-0.0} -filter_hw_device ocl"

printf "1080p yuv420p NL-means p=7 r=15 s=4, %d frames, %s, device: %s\n" "$N" "$(nproc) cores" "${CLVF_DEVICE:-default}"
# nlmeans and the two denoise_clvf rows take turns (fps_rows); nlmeans_opencl, slow, runs a fifth of
# the frames in one round on its own.
row="|$SRC_SIZE|$SRC_FMT"
{ read -r cpu cpu_s; read -r ours ours_s; read -r hw hw_s; } < <(fps_rows "$N" "$row|nlmeans=s=4:p=7:r=15" \
  "$row|denoise_clvf=s=4:p=7:r=15" "$row|hwupload,denoise_clvf=s=4:p=7:r=15,hwdownload,format=yuv420p|$OCL")
read -r ocl ocl_s <<< "$(FPS_RUNS=1 fps_of "hwupload,nlmeans_opencl=s=4:p=7:r=15,hwdownload,format=yuv420p" "$(( (N + 4) / 5 ))" "$OCL")"
printf "%-40s %10s %14s %18s %10s\n" "filter" "fps" "vs nlmeans" "vs nlmeans_opencl" "startup s"
printf "%-40s %10s %14s %18s %10s\n" "nlmeans (CPU, $(nproc) threads)" "$cpu" "1.00x" "-" "$cpu_s"
printf "%-40s %10s %14s %18s %10s\n" "nlmeans_opencl (hwupload/hwdownload)" "$ocl" "$(ratio "$ocl" "$cpu")" "1.00x" "$ocl_s"
printf "%-40s %10s %14s %18s %10s\n" "denoise_clvf (system memory)" "$ours" "$(ratio "$ours" "$cpu")" "$(ratio "$ours" "$ocl")" "$ours_s"
printf "%-40s %10s %14s %18s %10s\n" "denoise_clvf (hwupload/hwdownload)" "$hw" "$(ratio "$hw" "$cpu")" "$(ratio "$hw" "$ocl")" "$hw_s"
rows=$(mktemp)
printf "nlmeans (CPU)\t%s\nnlmeans_opencl\t%s\ndenoise_clvf\t%s\ndenoise_clvf (hwupload)\t%s\n" "$cpu" "$ocl" "$ours" "$hw" > "$rows"
plot_rows "NL-means 1080p p=7 r=15, $(nproc) cores, device ${CLVF_DEVICE:-default}" \
  "${CLVF_BUILD_DIR:-$ROOT/build}/bench/denoise_fps.png" "$rows"
rm -f "$rows"
