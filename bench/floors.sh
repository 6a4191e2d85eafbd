#!/usr/bin/env bash
# Benchmark (not a test): kernel time per 1080p NV12 frame from OpenCL events (cl buffers, the C
# API) for scale, colorspace and denoise, beside each one's floor on this device: bytes in plus
# out at the measured copy bandwidth, and for denoise the exp2 per pixel and offset at the
# measured native_exp2 rate (bench/device_floor.c). A table, and a PNG plot of both as fps.
#   bash bench/floors.sh [frames]      CLVF_DEVICE picks the device (e.g. nvidia)
set -euo pipefail
N=${1:-200}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${CLVF_BUILD_DIR:-$ROOT/build}/bin
source "$ROOT/bench/plot.sh"

ceilings=$("$BIN/device_floor")
bw=$(awk '/bandwidth_gbs/ {print $2}' <<< "$ceilings")
exps=$(awk '/exp2_gps/ {print $2}' <<< "$ceilings")
gpu=$(awk '/^gpu/ {print $2}' <<< "$ceilings")
# Sum of the per-kernel mean times (ms) of the cl-buffers run one frame at a time.
kernel_ms() {
  CLVF_PROFILE=1 "$BIN/throughput" "$@" | awk '/cl buffers/ {on++; next} on == 1 && / runs / {
    for (i = 1; i < NF; i++) if ($i == "mean") s += $(i + 1) } END { printf "%.4f", s }'
}
W=1920 H=1080
frame=$((W * H * 3 / 2)) small=$((1280 * 720 * 3 / 2))
# r=15 is the research window's size (15 x 15, as FFmpeg's nlmeans), not its radius: 224 offsets.
lanes=$((W * H * 3 / 2)) offsets=$((15 * 15 - 1))
printf "device: %s; copy bandwidth %s GB/s, native_exp2 %s G/s\n" "${CLVF_DEVICE:-default}" "$bw" "$exps"
printf "%-38s %10s %10s %10s  %s\n" "operation (1080p NV12)" "kernel ms" "fps" "floor ms" "floor bound"
out=${CLVF_BUILD_DIR:-$ROOT/build}/bench
mkdir -p "$out"
table=$out/floors.tsv  # kept: plot it elsewhere where this machine has no gnuplot
: > "$table"
row() {  # NAME KERNEL_MS FLOOR_MS BOUND
  awk -v n="$1" -v k="$2" -v f="$3" -v b="$4" 'BEGIN {
    printf "%-38s %10.4f %10.0f %10.4f  %s (%.0f%% of kernel time)\n", n, k, 1000 / k, f, b, 100 * f / k }'
  printf "%s\t%s\n%s floor\t%s\n" "$1" "$(awk -v k="$2" 'BEGIN { printf "%.0f", 1000 / k }')" \
    "$1" "$(awk -v f="$3" 'BEGIN { printf "%.0f", 1000 / f }')" >> "$table"
}
mem_floor() { awk -v b="$1" -v bw="$bw" 'BEGIN { printf "%.5f", b / (bw * 1e9) * 1000 }'; }
row "scale bicubic -> 720p" "$(kernel_ms scale bicubic "$N")" "$(mem_floor $((frame + small)))" "memory"
row "colorspace BT.601 -> BT.709" "$(kernel_ms colorspace bt601:bt709 "$N")" "$(mem_floor $((2 * frame)))" "memory"
# CPU kernels compute exp2 by a polynomial, not native_exp2: there the floor is memory only.
if [ "$gpu" = 1 ]; then
  floor=$(awk -v n="$lanes" -v o="$offsets" -v r="$exps" 'BEGIN { printf "%.5f", n * o / (r * 1e9) * 1000 }')
  bound="exp2 per pixel and offset"
else
  floor=$(mem_floor $((2 * frame))) bound="memory (no exp2 floor on CPUs)"
fi
row "denoise p=7 r=15" "$(kernel_ms denoise 8:7:15 "$((N / 4 + 1))")" "$floor" "$bound"
plot_rows "1080p NV12 kernel fps and floors, device ${CLVF_DEVICE:-default}" "$out/floors.png" "$table" log
