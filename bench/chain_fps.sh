#!/usr/bin/env bash
# Benchmark (not a test): a chain against its stages alone, one run, same machine, same source,
# the four rows taking turns (bench/fps_lib.sh's fps_rows: steady-state fps): clvf=denoise-web-720p (one filter: each frame goes through both operations with no
# host wait between them) and the same two filters separately, beside denoise_clvf=preset=medium
# and scale_clvf=preset=web-720p alone. The chain's goal: within 10% of its slowest stage alone
# (ratio >= 0.90).
#   bash bench/chain_fps.sh [frames]     CLVF_DEVICE picks the device (default: default);
#   HW=1 runs OpenCL frames (hwupload and hwdownload in the timed chain: OCL_DEVICE, default 0.0),
#   of HW_FMT (default nv12; PoCL, which has no two-channel images, takes yuv420p)
set -euo pipefail
N=${1:-20}
source "$(dirname "$0")/fps_lib.sh"
pre="" up="" down=""
if [ "${HW:-0}" = 1 ]; then
  pre="-init_hw_device opencl=ocl:${OCL_DEVICE:-0.0} -filter_hw_device ocl"
  SRC_FMT=${HW_FMT:-nv12} up="hwupload," down=",hwdownload,format=${HW_FMT:-nv12}"
fi
# The four take turns (fps_rows), so that a busy spell on a shared machine falls on all of them;
# the scale alone, some 100 times faster than the denoise on a CPU, runs 50 times the frames.
row="|$SRC_SIZE|$SRC_FMT"
{ read -r denoise _; read -r scale _; read -r chain _; read -r separate _; } < <(fps_rows "$N" \
  "$row|${up}denoise_clvf=preset=medium$down|$pre" "$row|${up}scale_clvf=preset=web-720p$down|$pre|$((N * 50))" \
  "$row|${up}clvf=denoise-web-720p$down|$pre" "$row|${up}denoise_clvf=preset=medium,scale_clvf=preset=web-720p$down|$pre")
slowest=$(awk -v a="$denoise" -v b="$scale" 'BEGIN { print (a < b ? a : b) }')
printf "1080p %s, %d frames (the scale alone %d), %s, device: %s%s\n" "$SRC_FMT" "$N" "$((N * 50))" \
  "$(nproc) cores" "${CLVF_DEVICE:-default}" "$([ "${HW:-0}" = 1 ] && echo ', OpenCL frames')"
printf "%-52s %10s %18s\n" "filters" "fps" "vs slowest stage"
printf "%-52s %10s %18s\n" "denoise_clvf=preset=medium (stage 1 alone)" "$denoise" "$(ratio "$denoise" "$slowest")"
printf "%-52s %10s %18s\n" "scale_clvf=preset=web-720p (stage 2 alone)" "$scale" "$(ratio "$scale" "$slowest")"
printf "%-52s %10s %18s\n" "clvf=denoise-web-720p (the chain, one filter)" "$chain" "$(ratio "$chain" "$slowest")"
printf "%-52s %10s %18s\n" "the two filters separately" "$separate" "$(ratio "$separate" "$slowest")"
