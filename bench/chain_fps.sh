#!/usr/bin/env bash
# Benchmark (not a test): a chain against its stages alone, one run, same machine, same source
# (bench/fps_lib.sh: steady-state fps): clvf=denoise-web-720p (one filter: each frame goes through both operations with no
# host wait between them) and the same two filters separately, beside denoise_clvf=preset=medium
# and scale_clvf=preset=web-720p alone. The chain's goal: within 10% of its slowest stage alone
# (ratio >= 0.90).
#   bash bench/chain_fps.sh [frames]     CLVF_DEVICE picks the device (default: default);
#   HW=1 runs OpenCL frames (hwupload and hwdownload in the timed chain: OCL_DEVICE, default 0.0)
set -euo pipefail
N=${1:-20}
source "$(dirname "$0")/fps_lib.sh"
pre="" up="" down=""
if [ "${HW:-0}" = 1 ]; then
  pre="-init_hw_device opencl=ocl:${OCL_DEVICE:-0.0} -filter_hw_device ocl"
  up="hwupload," down=",hwdownload,format=nv12"
fi
read -r denoise denoise_s <<< "$(fps_of "${up}denoise_clvf=preset=medium$down" "$N" "$pre")"
read -r scale scale_s <<< "$(fps_of "${up}scale_clvf=preset=web-720p$down" "$N" "$pre")"
read -r chain chain_s <<< "$(fps_of "${up}clvf=denoise-web-720p$down" "$N" "$pre")"
read -r separate separate_s <<< "$(fps_of "${up}denoise_clvf=preset=medium,scale_clvf=preset=web-720p$down" "$N" "$pre")"
slowest=$(awk -v a="$denoise" -v b="$scale" 'BEGIN { print (a < b ? a : b) }')
printf "1080p nv12, %d frames, %s, device: %s%s\n" "$N" "$(nproc) cores" "${CLVF_DEVICE:-default}" \
  "$([ "${HW:-0}" = 1 ] && echo ', OpenCL frames')"
printf "%-52s %10s %18s\n" "filters" "fps" "vs slowest stage"
printf "%-52s %10s %18s\n" "denoise_clvf=preset=medium (stage 1 alone)" "$denoise" "$(ratio "$denoise" "$slowest")"
printf "%-52s %10s %18s\n" "scale_clvf=preset=web-720p (stage 2 alone)" "$scale" "$(ratio "$scale" "$slowest")"
printf "%-52s %10s %18s\n" "clvf=denoise-web-720p (the chain, one filter)" "$chain" "$(ratio "$chain" "$slowest")"
printf "%-52s %10s %18s\n" "the two filters separately" "$separate" "$(ratio "$separate" "$slowest")"
