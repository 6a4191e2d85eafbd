#!/usr/bin/env bash
# CUDA frames on the NVIDIA machine (run there through the device tool, after
# scripts/gpu-bundle.sh here; CI cannot run it: it has no NVIDIA GPU). Three parts:
#   1. the CUDA-frame unit tests on the real driver (CLVF_TEST_CUDA=real);
#   2. NVDEC-decoded H.264, HEVC and HEVC Main 10 through each filter and a chain on CUDA frames,
#      which must equal byte for byte (framemd5) the same frames through hwdownload and the
#      system-memory filters on the same OpenCL device;
#   3. frame rates, side by side in one run: CUDA frames straight in (ordered by semaphores, and
#      by host waits), the hwdownload path,
#      nlmeans_opencl, scale_cuda, and NVDEC alone. Startup is taken out: each figure is
#      (frames of a long run - frames of a short one) / (time difference), after an untimed run
#      that fills the kernel cache.
# Writes $OUT/cuda_frames.log and $OUT/cuda_fps.csv. Exit status: 1 when a check failed.
# NLMEANS=0 leaves out nlmeans_opencl (its rates and PSNR: the slowest part) when device time is short.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=/dev/null
source "$ROOT/.gpu/env.sh"
RESULTS=${OUT:-/tmp/clvf-gpu}
mkdir -p "$RESULTS"
W=$(mktemp -d)
LOG=$RESULTS/cuda_frames.log
CSV=$RESULTS/cuda_fps.csv
exec > >(tee "$LOG") 2>&1
fail=0
FF=(ffmpeg-gpu -hide_banner -nostdin -y -loglevel error)
DEC=(-hwaccel cuda -hwaccel_output_format cuda)

nvidia-smi -L
clinfo -l
echo "== 0. what OpenCL offers for ordering with CUDA by semaphores"
timeout 60 semaphore_probe
semaphores_work=$?
echo "== 1. unit tests on the real CUDA driver"
CLVF_TEST_CUDA=real clvf_interop_unit_tests --gtest_filter='*Cuda*' 2>&1 | tail -n 30
[ "${PIPESTATUS[0]}" = 0 ] || fail=1

echo "== inputs (x264 / x265 of this build)"
make_input() {  # name size frames pix_fmt encoder preset
  "${FF[@]}" -f lavfi -i "testsrc2=size=$2:rate=30,noise=alls=6:allf=t" -frames:v "$3" -pix_fmt "$4" \
    -c:v "$5" -preset "$6" -crf 23 $([ "$5" = libx265 ] && echo -x265-params log-level=error) "$W/$1.mp4"
  echo "$1: $2, $3 frames, $4, $5"
}
make_input h264 1920x1080 600 yuv420p libx264 veryfast
make_input hevc4k 3840x2160 240 yuv420p libx265 ultrafast
make_input hevc10 1920x1080 60 yuv420p10le libx265 ultrafast

echo "== 2. CUDA frames equal hwdownload + system-memory clvf (framemd5)"
same() {  # name input download-format filter output-format
  local name=$1 in=$W/$2.mp4 dl=$3 vf=$4 out=$5
  "${FF[@]}" "${DEC[@]}" -i "$in" -frames:v 30 -vf "$vf,hwdownload,format=$out" -f framemd5 "$W/a.md5" || { echo "FAIL $name (CUDA frames)"; fail=1; return; }
  CLVF_DEVICE=nvidia "${FF[@]}" "${DEC[@]}" -i "$in" -frames:v 30 -vf "hwdownload,format=$dl,$vf" -f framemd5 "$W/b.md5" \
    || { echo "FAIL $name (system memory)"; fail=1; return; }
  if cmp -s "$W/a.md5" "$W/b.md5" && [ "$(grep -vc '^#' "$W/a.md5")" = 30 ]; then echo "PASS $name"; else
    echo "FAIL $name: frames differ"; diff "$W/a.md5" "$W/b.md5" | head -5; fail=1; fi
}
for in in h264 hevc4k; do
  same "$in scale_clvf" $in nv12 "scale_clvf=w=1280:h=720" nv12
  same "$in scale_clvf spline36 to yuv420p" $in nv12 "scale_clvf=w=854:h=480:algorithm=spline36:format=yuv420p" yuv420p
  same "$in denoise_clvf" $in nv12 "denoise_clvf=s=3:p=7:r=15" nv12
  same "$in denoise_clvf t=1" $in nv12 "denoise_clvf=s=3:p=5:r=9:t=1" nv12
  same "$in colorspace_clvf" $in nv12 "colorspace_clvf=matrix=bt601:format=yuv444p" yuv444p
  same "$in two filters" $in nv12 "denoise_clvf=s=3,scale_clvf=w=1280:h=720" nv12
  same "$in chain" $in nv12 "clvf=chain=denoise-web-720p" nv12
done
echo "== two clvf filters in a row: the second reads the first's pool in place"
"${FF[@]}" -loglevel info "${DEC[@]}" -i "$W/h264.mp4" -frames:v 30 \
  -vf "denoise_clvf=s=3:profile=1,scale_clvf=w=1280:h=720:profile=1,hwdownload,format=nv12" -f null - 2>&1 \
  | grep 'CUDA source' | tee "$W/two.log"
if [ "$(grep -c '0.0 planes copied' "$W/two.log")" = 1 ]; then echo "PASS second filter copies nothing"; else
  echo "FAIL two filters: expected the second filter's source with 0.0 planes copied"; fail=1; fi
syncs="stream context"
if [ $semaphores_work = 0 ]; then syncs="$syncs semaphores"; else
  # where OpenCL cannot export semaphores, asking for them must fail and say why
  if CLVF_CUDA_SYNC=semaphores "${FF[@]}" "${DEC[@]}" -i "$W/h264.mp4" -frames:v 2 -vf "scale_clvf=w=640:h=360" \
    -f null - 2> "$W/sem.log"; then echo "FAIL CLVF_CUDA_SYNC=semaphores ran without semaphores"; fail=1
  elif grep -q "cannot share semaphores with CUDA" "$W/sem.log"; then echo "PASS CLVF_CUDA_SYNC=semaphores refused: $(grep -o '(no [^)]*)' "$W/sem.log" | head -1)"
  else echo "FAIL CLVF_CUDA_SYNC=semaphores: unclear error"; cat "$W/sem.log"; fail=1; fi
fi
for sync in $syncs; do
  CLVF_CUDA_SYNC=$sync same "h264 two filters, CLVF_CUDA_SYNC=$sync" h264 nv12 "denoise_clvf=s=3,scale_clvf=w=1280:h=720" nv12
done
echo "== clvf's CUDA frames into a CUDA filter (scale_cuda), as into NVENC on cards that have one"
"${FF[@]}" "${DEC[@]}" -i "$W/h264.mp4" -frames:v 30 \
  -vf "denoise_clvf=s=3,scale_cuda=1280:720,hwdownload,format=nv12" -f framemd5 "$W/a.md5"
CLVF_DEVICE=nvidia "${FF[@]}" "${DEC[@]}" -i "$W/h264.mp4" -frames:v 30 \
  -vf "hwdownload,format=nv12,denoise_clvf=s=3,hwupload_cuda,scale_cuda=1280:720,hwdownload,format=nv12" -f framemd5 "$W/b.md5"
if cmp -s "$W/a.md5" "$W/b.md5" && [ "$(grep -vc '^#' "$W/a.md5")" = 30 ]; then echo "PASS denoise_clvf's CUDA frames into scale_cuda"; else
  echo "FAIL denoise_clvf's CUDA frames into scale_cuda"; diff "$W/a.md5" "$W/b.md5" | head -5; fail=1; fi
same "hevc10 scale_clvf (P010)" hevc10 p010le "scale_clvf=w=1280:h=720" p010le
same "hevc10 colorspace_clvf P010 bt2020 to nv12 bt709" hevc10 p010le \
  "colorspace_clvf=in_matrix=bt2020nc:matrix=bt709:format=nv12" nv12

echo "== 3. frames per second (1080p H.264, 600 frames; 4K HEVC, 240 frames)"
rtime() {  # frames, then ffmpeg arguments after -i's input: seconds of the run
  local n=$1; shift
  "${FF[@]}" -loglevel info -benchmark "$@" -frames:v "$n" -f null - > "$W/run.log" 2>&1
  sed -n 's/.*rtime=\([0-9.]*\)s.*/\1/p' "$W/run.log" | tail -n1
  grep -q rtime= "$W/run.log" || { echo "no time from: $*" >&2; tail -n 4 "$W/run.log" >&2; }
}
fps() {  # label input frames [args...]
  local label=$1 in=$W/$2.mp4 n=$3; shift 3
  local short long
  # An untimed run first: kernels built (program cache misses) in the short run would inflate the rate.
  rtime 2 "$@" -i "$in" ${VF:+-vf "$VF"} > /dev/null
  short=$(rtime 20 "$@" -i "$in" ${VF:+-vf "$VF"}) long=$(rtime "$n" "$@" -i "$in" ${VF:+-vf "$VF"})
  local f
  f=$(awk -v n="$n" -v a="$short" -v b="$long" 'BEGIN { if (b > a) printf "%.1f", (n - 20) / (b - a); else print "nan" }')
  local name
  name=$(basename "$in" .mp4)
  echo "$label,$name,$f" >> "$CSV"
  printf '%-45s %-7s %8s fps\n' "$label" "$name" "$f"
}
echo "pipeline,input,fps" > "$CSV"
D="denoise_clvf=s=3:p=7:r=15"
S="scale_clvf=w=1280:h=720"
for in in h264 hevc4k; do
  n=$([ $in = h264 ] && echo 600 || echo 240)
  VF="" fps "NVDEC alone" $in $n "${DEC[@]}"
  VF="hwdownload,format=nv12" fps "NVDEC + hwdownload" $in $n "${DEC[@]}"
  VF="$D,$S,hwdownload,format=nv12" fps "clvf denoise+scale, CUDA frames in" $in $n "${DEC[@]}"
  VF="$D,$S,hwdownload,format=nv12" CLVF_CUDA_SYNC=context fps "clvf denoise+scale, CUDA frames in, context waits" $in $n "${DEC[@]}"
  VF="hwdownload,format=nv12,$D,$S" CLVF_DEVICE=nvidia fps "clvf denoise+scale, after hwdownload" $in $n "${DEC[@]}"
  VF="$D,hwdownload,format=nv12" fps "denoise_clvf, CUDA frames in" $in $n "${DEC[@]}"
  [ "${NLMEANS:-1}" = 0 ] || VF="hwdownload,format=nv12,format=yuv420p,hwupload,nlmeans_opencl=s=3:p=7:r=15,hwdownload,format=yuv420p" \
    fps "nlmeans_opencl (hwdownload, hwupload)" $in $n -init_hw_device opencl=ocl -filter_hw_device ocl "${DEC[@]}"
  VF="$S,hwdownload,format=nv12" fps "scale_clvf, CUDA frames in" $in $n "${DEC[@]}"
  VF="scale_cuda=1280:720,hwdownload,format=nv12" fps "scale_cuda" $in $n "${DEC[@]}"
done
if [ "${NLMEANS:-1}" != 0 ]; then
  echo "== PSNR of denoise_clvf against nlmeans_opencl (same s, p, r), 1080p H.264"
  "${FF[@]}" "${DEC[@]}" -i "$W/h264.mp4" -frames:v 30 -vf "$D,hwdownload,format=nv12" -f rawvideo "$W/clvf.yuv"
  "${FF[@]}" -init_hw_device opencl=ocl -filter_hw_device ocl "${DEC[@]}" -i "$W/h264.mp4" -frames:v 30 \
    -vf "hwdownload,format=nv12,format=yuv420p,hwupload,nlmeans_opencl=s=3:p=7:r=15,hwdownload,format=yuv420p,format=nv12" -f rawvideo "$W/ocl.yuv"
  ffmpeg-gpu -hide_banner -nostdin -f rawvideo -pix_fmt nv12 -s 1920x1080 -i "$W/clvf.yuv" -f rawvideo -pix_fmt nv12 \
    -s 1920x1080 -i "$W/ocl.yuv" -lavfi psnr -f null - 2>&1 | grep -o 'PSNR.*'
fi
for in in h264 hevc4k; do
  for sync in $syncs; do
    echo "== kernel and ordering times (profile=1), $in, CUDA frames in, CLVF_CUDA_SYNC=$sync"
    CLVF_CUDA_SYNC=$sync "${FF[@]}" -loglevel info "${DEC[@]}" -i "$W/$in.mp4" -frames:v 120 \
      -vf "$D:profile=1,$S:profile=1,hwdownload,format=nv12" -f null - 2>&1 | grep -iE 'ms|kernel' | head -20
  done
done
rm -rf "$W"
[ $fail = 0 ] && echo "cuda_frames: all checks passed" || echo "cuda_frames: FAILED"
exit $fail
