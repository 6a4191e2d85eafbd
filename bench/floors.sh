#!/usr/bin/env bash
# Benchmark (not a test): kernel time per 1080p NV12 frame from OpenCL events (cl buffers, the C
# API) for scale, colorspace and denoise, beside each one's floor on this device: bytes in plus
# out at the measured copy bandwidth; for scale also the filter's multiply-adds at the measured
# float multiply-add rate, and for denoise the exp2 per pixel and offset at the measured
# native_exp2 rate (bench/device_floor.c); the larger counts. A table, and a PNG plot of both as
# fps.
#   bash bench/floors.sh [frames]      CLVF_DEVICE picks the device (e.g. nvidia)
set -euo pipefail
N=${1:-200}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${CLVF_BUILD_DIR:-$ROOT/build}/bin
source "$ROOT/bench/plot.sh"

ceilings=$("$BIN/device_floor")
bw=$(awk '/bandwidth_gbs/ {print $2}' <<< "$ceilings")
exps=$(awk '/exp2_gps/ {print $2}' <<< "$ceilings")
fmas=$(awk '/fma_gps/ {print $2}' <<< "$ceilings")
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
printf "device: %s; copy bandwidth %s GB/s, native_exp2 %s G/s, float multiply-adds %s G/s\n" \
  "${CLVF_DEVICE:-default}" "$bw" "$exps" "$fmas"
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
# Multiply-adds of a separable resample of one plane, SW x SH to DW x DH, LANES channels a pixel,
# a filter of radius R source pixels (scaled by the ratio where it shrinks), in the cheaper order
# of the two passes. The nonzero taps of an output average 2 x the scaled radius (the whole
# source positions strictly inside its support).
resample_macs() {  # SW SH DW DH LANES R
  awk -v sw="$1" -v sh="$2" -v dw="$3" -v dh="$4" -v l="$5" -v r="$6" 'BEGIN {
    th = 2 * r * (sw > dw ? sw / dw : 1); tv = 2 * r * (sh > dh ? sh / dh : 1)
    v = dh * sw * tv + dh * dw * th; h = sh * dw * th + dh * dw * tv
    printf "%.0f", l * (v < h ? v : h) }'
}
# Scale 1080p -> 720p NV12 with a filter of radius R: the larger of its memory floor and its
# multiply-adds at the device's rate, and which it is.
scale_row() {  # NAME ALGORITHM R
  local macs mem fma
  macs=$(( $(resample_macs $W $H 1280 720 1 "$3") + $(resample_macs $((W / 2)) $((H / 2)) 640 360 2 "$3") ))
  mem=$(mem_floor $((frame + small)))
  fma=$(awk -v m="$macs" -v r="$fmas" 'BEGIN { printf "%.5f", m / (r * 1e9) * 1000 }')
  if awk -v a="$fma" -v b="$mem" 'BEGIN { exit !(a > b) }'; then
    row "$1" "$(kernel_ms scale "$2" "$N")" "$fma" "$(awk -v m="$macs" 'BEGIN { printf "%.1f", m / 1e6 }') M multiply-adds"
  else
    row "$1" "$(kernel_ms scale "$2" "$N")" "$mem" "memory"
  fi
}
scale_row "scale bicubic -> 720p" bicubic 2
scale_row "scale spline36 -> 720p" spline36 3
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
