#!/usr/bin/env bash
# The C sample (public API, shared library, no FFmpeg) gives the same bytes as ffmpeg's scale_clvf.
set -euo pipefail
BIN=$1
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
"$BIN/ffmpeg" -hide_banner -nostdin -loglevel error -f lavfi -i "testsrc2=size=640x360,noise=alls=10:allf=t+u" \
  -frames:v 3 -pix_fmt nv12 -f rawvideo -y "$d/in.raw"
"$BIN/scale_raw" nv12 640x360 428x240 "$d/in.raw" "$d/sample.raw" pocl
"$BIN/ffmpeg" -hide_banner -nostdin -loglevel error -f rawvideo -pix_fmt nv12 -s 640x360 -i "$d/in.raw" \
  -vf scale_clvf=w=428:h=240 -f rawvideo -pix_fmt nv12 -y "$d/ffmpeg.raw"
cmp "$d/sample.raw" "$d/ffmpeg.raw"
[ "$(stat -c %s "$d/sample.raw")" -eq $(( (428 * 240 + 2 * 214 * 120) * 3 )) ]
if "$BIN/scale_raw" rgb24 64x64 32x32 "$d/in.raw" "$d/x.raw" 2> "$d/err"; then exit 1; fi
grep -q "allowed: yuv420p, nv12" "$d/err"
echo "sample scale_raw: identical to scale_clvf, bad format refused"
