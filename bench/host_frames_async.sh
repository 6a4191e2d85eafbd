#!/usr/bin/env bash
# Benchmark (not a test): system-memory frames through ffmpeg at async_depth 1, 2 and 3, from a
# raw 1080p NV12 file looped by the demuxer (-stream_loop: a fresh packet a frame, as a decoder
# outside the graph gives), whole runs timed, with the minor page faults of each: holding inputs
# longer than the device needs them shows there (FFmpeg's memory given back and faulted in again).
# The source alone (-vf null) is the floor. Rows "seconds faults" per chain, depth and round.
#   bash bench/host_frames_async.sh [frames] [rounds]   FF=path/to/ffmpeg (default build/bin/ffmpeg)
#   DENOISE_FRAMES=600 adds denoise p=7 r=15 and scale+denoise with that many frames (on a GPU;
#   on PoCL a frame takes a tenth of a second)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FF=${FF:-${CLVF_BUILD_DIR:-$ROOT/build}/bin/ffmpeg}
N=${1:-1500}
ROUNDS=${2:-3}
DENOISE_FRAMES=${DENOISE_FRAMES:-0}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$FF" -v error -f lavfi -i testsrc2=size=1920x1080:rate=30 -frames:v 8 -pix_fmt nv12 -f rawvideo -y "$T/src.nv12"
src=(-stream_loop -1 -f rawvideo -pix_fmt nv12 -s 1920x1080 -r 30 -i "$T/src.nv12")
# Seconds and minor page faults of one run (python3's getrusage of the child).
run() {
  python3 - "$FF" -hide_banner -nostdin -loglevel error "${src[@]}" -vf "$1" -frames:v "$2" -f null - <<'PY'
import resource, subprocess, sys, time
t = time.time()
subprocess.run(sys.argv[1:], check=True)
print(f"{time.time() - t:.3f} s {resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt} faults")
PY
}
rows=("null|null|$N" "scale spline36|scale_clvf=w=1280:h=720:algorithm=spline36%s|$N")
if [ "$DENOISE_FRAMES" -gt 0 ]; then
  rows+=("denoise|denoise_clvf=s=8:p=7:r=15%s|$DENOISE_FRAMES"
         "scale + denoise|scale_clvf=w=1280:h=720%s,denoise_clvf=s=8:p=7:r=15%s|$DENOISE_FRAMES")
fi
echo "system-memory frames, raw 1080p NV12 looped, $("$FF" -version | head -1 | cut -d' ' -f1-3), device: ${CLVF_DEVICE:-default}"
for round in $(seq "$ROUNDS"); do
  for row in "${rows[@]}"; do
    IFS='|' read -r name chain frames <<< "$row"
    if [ "$chain" = null ]; then
      echo "round $round | $name | $frames frames | $(run null "$frames")"
      continue
    fi
    for depth in 1 2 3; do
      vf=${chain//%s/:async_depth=$depth}
      echo "round $round | $name | async_depth=$depth | $frames frames | $(run "$vf" "$frames")"
    done
  done
done
