#!/usr/bin/env bash
# Benchmark (not a test): the clvf filters on FFmpeg's OpenCL frames (hwupload, the filter,
# hwdownload) on an OpenCL device: with the images staged through buffers around the kernels (the
# default on CPU devices), with them read and written in place (CLVF_IMAGES=in-place: what GPUs
# do), and the same filter on system-memory frames; and hwupload,hwdownload alone. 1080p yuv420p
# (PoCL has no two-channel images for NV12). A filter's rows take turns (bench/fps_lib.sh's
# fps_rows), FPS_RUNS rounds (default 3).
#   bash bench/opencl_frames_fps.sh [frames]   default 300; denoise a fiftieth; scale and colour
#                                              with images in place a twentieth. OCL_DEVICE
#                                              (default 0.0) is the -init_hw_device opencl=ocl:P.D
#                                              the filters use.
set -euo pipefail
N=${1:-300}
SRC_FMT=yuv420p
source "$(dirname "$0")/fps_lib.sh"
source "$(dirname "$0")/plot.sh"
OCL="-init_hw_device opencl=ocl:${OCL_DEVICE:-0.0} -filter_hw_device ocl"
filters=("scale_clvf=w=1280:h=720:algorithm=spline36" "colorspace_clvf=in_matrix=bt601:matrix=bt709"
         "denoise_clvf=s=4:p=7:r=15")
printf "1080p yuv420p, %d frames, %s cores, OpenCL device %s\n" "$N" "$(nproc)" "${OCL_DEVICE:-0.0}"
printf "%-46s %12s %12s %12s %14s\n" "filter" "system mem" "staged" "in place" "staged/in place"
table=$(mktemp)
up="hwupload,hwdownload,format=yuv420p"
read -r alone _ <<< "$(fps_of "$up" "$N" "$OCL")"
for f in "${filters[@]}"; do
  n=$N in_place_n=$(( (N + 19) / 20 ))
  [[ $f == denoise* ]] && n=$(( (N + 49) / 50 )) in_place_n=$n
  hw="hwupload,$f,hwdownload,format=yuv420p"
  { read -r sys _; read -r staged _; read -r in_place _; } < <(fps_rows "$n" \
    "|$SRC_SIZE|$SRC_FMT|$f|$OCL" "CLVF_IMAGES=staged|$SRC_SIZE|$SRC_FMT|$hw|$OCL" \
    "CLVF_IMAGES=in-place|$SRC_SIZE|$SRC_FMT|$hw|$OCL|$in_place_n")
  printf "%-46s %12s %12s %12s %14s\n" "$f" "$sys" "$staged" "$in_place" "$(ratio "$staged" "$in_place")"
  name=${f%%=*}
  printf "%s, system memory\t%s\n%s, images staged\t%s\n%s, images in place\t%s\n" \
    "$name" "$sys" "$name" "$staged" "$name" "$in_place" >> "$table"
done
printf "%-46s %12s\n" "hwupload,hwdownload alone" "$alone"
plot_rows "clvf filters on OpenCL frames, $(nproc) cores, device ${OCL_DEVICE:-0.0}" \
  "${CLVF_BUILD_DIR:-$ROOT/build}/bench/opencl_frames_fps.png" "$table"
rm -f "$table"
