#!/usr/bin/env bash
# The main job's transcode (scripts/main-job.sh: 1080p H.264 + AAC, 10 s, to 720p with denoise,
# libx264 and AAC) through clvf's filters and, in the same run, the same pipeline with FFmpeg's
# CPU filters (scale bicubic + nlmeans at the same strength, patch and window) and with
# nlmeans_opencl on the same OpenCL device. End-to-end fps (decode, filters, both encoders, mux).
# Usage: bench/main_job_fps.sh [FRAMES]   (default 300: the whole sample; nlmeans_opencl runs a
# tenth of them, at least 10: on PoCL it is about 0.25 fps)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${CLVF_BUILD_DIR:-$ROOT/build}
FF=$BUILD/bin/ffmpeg
SAMPLE=$BUILD/samples/sample-1080p-h264-aac.mp4
[ -s "$SAMPLE" ] || { echo "bench: $SAMPLE missing; run scripts/main-job.sh first" >&2; exit 1; }
n=${1:-300}
fps() {  # fps PRE-INPUT-OPTIONS VF [FRAMES]
  local t0 t1 n=${3:-$n}
  t0=$(date +%s.%N)
  "$FF" -hide_banner -nostdin -loglevel error $1 -i "$SAMPLE" -frames:v "$n" -vf "$2" \
    -c:v libx264 -preset veryfast -crf 20 -c:a aac -b:a 128k -f mp4 -y /dev/null
  t1=$(date +%s.%N)
  awk -v n="$n" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", n / (b - a) }'
}
# denoise_clvf=preset=light is s=4:p=7:r=15 (presets/denoise_clvf.preset).
clvf=$(fps "" "scale_clvf=w=1280:h=720:algorithm=bicubic,denoise_clvf=preset=light")
cpu=$(fps "" "scale=w=1280:h=720:flags=bicubic,nlmeans=s=4:p=7:r=15")
ocl=$(fps "-init_hw_device opencl=ocl -filter_hw_device ocl" \
  "scale=w=1280:h=720:flags=bicubic,format=yuv420p,hwupload,nlmeans_opencl=s=4:p=7:r=15,hwdownload,format=yuv420p" \
  $((n / 10 > 10 ? n / 10 : 10)))
echo "| pipeline (1080p H.264 + AAC -> 720p, $n frames, $(nproc) cores) | fps | clvf's speed-up |"
echo "| --- | --- | --- |"
echo "| scale_clvf + denoise_clvf | $clvf | 1.00x |"
echo "| scale + nlmeans (FFmpeg, CPU) | $cpu | $(awk -v a="$clvf" -v b="$cpu" 'BEGIN { printf "%.2fx", a / b }') |"
echo "| scale + nlmeans_opencl (FFmpeg, same OpenCL device) | $ocl | $(awk -v a="$clvf" -v b="$ocl" 'BEGIN { printf "%.2fx", a / b }') |"
