#!/usr/bin/env bash
# Draws the before/after strips in docs/img/ from the test photographs (scripts/setup.sh fetches
# them): denoise (noisy crop | denoise_clvf | FFmpeg's nlmeans at the same strength) and scale
# (a small crop enlarged 4x by each scale_clvf algorithm). The built ffmpeg makes the pictures,
# gnuplot writes the PNGs (this FFmpeg build has no PNG encoder).
#   bash scripts/make_strips.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FF=${CLVF_BUILD_DIR:-$ROOT/build}/bin/ffmpeg
IMG=$ROOT/.deps/images
OUT=$ROOT/docs/img
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
ff() { "$FF" -hide_banner -nostdin -loglevel error "$@"; }

# Frames side by side with 4-pixel white gaps, as one raw RGB picture; then a PNG of it.
strip() {  # OUT.png W H in1.rgb in2.rgb ...
  local png=$1 w=$2 h=$3; shift 3
  python3 - "$d/strip.rgb" "$w" "$h" "$@" <<'PY'
import sys
out, w, h, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
frames = [open(f, "rb").read() for f in files]
gap = b"\xff" * 12
rows = [gap.join(fr[y * w * 3:(y + 1) * w * 3] for fr in frames) for y in range(h)]
open(out, "wb").write(b"".join(rows))
PY
  local sw=$(( $# * w + ($# - 1) * 4 ))
  gnuplot <<GP
set terminal pngcairo size $sw,$h
set output "$png"
set margins 0,0,0,0
unset border; unset tics; unset key
set xrange [-0.5:$sw-0.5]; set yrange [-0.5:$h-0.5]
plot "$d/strip.rgb" binary array=($sw,$h) format='%uchar' flipy with rgbimage
GP
  echo "strip: $png"
}
to_rgb() { ff -f rawvideo -pix_fmt yuv420p -s "$2" -i "$1" -vf format=rgb24 -f rawvideo -y "$3"; }

# Denoise: 256x256 of the astronaut with FFmpeg's noise filter (strength 20, about sigma 6 per
# sample), then denoise_clvf medium and nlmeans with the same s, p and r.
ff -i "$IMG/astronaut.png" -vf "crop=256:256:140:40,format=yuv420p,noise=alls=20:allf=t" -frames:v 1 -f rawvideo -y "$d/noisy.yuv"
ff -f rawvideo -pix_fmt yuv420p -s 256x256 -i "$d/noisy.yuv" -vf denoise_clvf=s=7.5:p=7:r=15 -f rawvideo -y "$d/clvf.yuv"
ff -f rawvideo -pix_fmt yuv420p -s 256x256 -i "$d/noisy.yuv" -vf nlmeans=s=7.5:p=7:r=15 -f rawvideo -y "$d/nlmeans.yuv"
for f in noisy clvf nlmeans; do to_rgb "$d/$f.yuv" 256x256 "$d/$f.rgb"; done
strip "$OUT/denoise-strip.png" 256 256 "$d/noisy.rgb" "$d/clvf.rgb" "$d/nlmeans.rgb"

# Scale: a 48x48 crop enlarged 4x to 192x192 by point, bilinear, bicubic, spline36, lanczos.
ff -i "$IMG/astronaut.png" -vf "crop=48:48:200:90,format=yuv420p" -frames:v 1 -f rawvideo -y "$d/small.yuv"
files=()
for a in point bilinear bicubic spline36 lanczos; do
  ff -f rawvideo -pix_fmt yuv420p -s 48x48 -i "$d/small.yuv" -vf "scale_clvf=w=192:h=192:algorithm=$a" -f rawvideo -y "$d/$a.yuv"
  to_rgb "$d/$a.yuv" 192x192 "$d/$a.rgb"
  files+=("$d/$a.rgb")
done
strip "$OUT/scale-strip.png" 192 192 "${files[@]}"
