#!/usr/bin/env bash
# The filters built into FFmpeg 7.1 (build/bin/ffmpeg-7.1, FFMPEG_SERIES=7.1 scripts/build-ffmpeg.sh)
# give the frames, tags and errors the FFmpeg 5.1 build gives: system-memory frames, OpenCL frames
# (hwupload, -filter_hw_device: 6.1's AVFILTER_FLAG_HWDEVICE and 7.1's FilterLink; YUV420P, whose
# planes are CL_R images on every device: PoCL has no CL_RG for NV12), temporal
# denoise, conversions and chains, with frames in flight between FFmpeg's calls too (async_depth).
# Skipped (77) when the 7.1 build is absent.
set -euo pipefail
BIN=$1
[ -x "$BIN/ffmpeg-7.1" ] || { echo "ffmpeg-7.1 is not built (FFMPEG_SERIES=7.1 bash scripts/build-ffmpeg.sh)"; exit 77; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
in="-hide_banner -nostdin -loglevel error -f lavfi -i testsrc2=s=320x240:r=25:d=0.4"
hw="-init_hw_device opencl=ocl -filter_hw_device ocl"
frames() {  # the frames' checksums, without the header (which names the version)
  "$@" -f framemd5 - | grep -v '^#'
}
n=0
for vf in "format=nv12,scale_clvf=w=160:h=-2:algorithm=lanczos" \
          "format=yuv420p,denoise_clvf=preset=light" \
          "format=yuv420p,denoise_clvf=s=5:t=2,scale_clvf=preset=half" \
          "format=nv12,colorspace_clvf=in_matrix=bt601:matrix=bt709:range=pc" \
          "format=nv12,scale_clvf=w=200:h=150:format=p010le:matrix=bt2020nc,colorspace_clvf=format=rgba" \
          "format=yuv420p,clvf=denoise-web-720p" \
          "format=yuv420p,denoise_clvf=s=5:t=2:async_depth=3,scale_clvf=preset=half:async_depth=2,clvf=denoise-web-720p:async_depth=3" \
          "format=yuv420p,hwupload,scale_clvf=w=160:h=120:async_depth=3,denoise_clvf=async_depth=3,hwdownload,format=yuv420p" \
          "format=yuv420p,hwupload,scale_clvf=w=160:h=120,denoise_clvf,colorspace_clvf=matrix=bt709,hwdownload,format=yuv420p"; do
  case "$vf" in *hwupload*) pre=$hw ;; *) pre= ;; esac
  a=$(frames "$BIN/ffmpeg" $pre $in -vf "$vf")
  b=$(frames "$BIN/ffmpeg-7.1" $pre $in -vf "$vf")
  [ -n "$a" ] && [ "$a" = "$b" ] || { echo "ffmpeg 7.1 differs from 5.1 for -vf $vf" >&2; diff <(echo "$a") <(echo "$b") | head >&2; exit 1; }
  n=$((n + 1))
done
# What an encoder is told of the colours.
for ff in ffmpeg ffmpeg-7.1; do
  "$BIN/$ff" $in -vf "format=nv12,colorspace_clvf=in_matrix=bt601:matrix=bt709:range=pc" -c:v libx264 -y "$d/$ff.mp4"
  "$BIN/ffprobe" -v error -show_entries stream=width,height,color_space,color_range -of csv=p=0 "$d/$ff.mp4" > "$d/$ff.tags"
done
cmp -s "$d/ffmpeg.tags" "$d/ffmpeg-7.1.tags" \
  || { echo "tags differ: 5.1 $(cat "$d/ffmpeg.tags"), 7.1 $(cat "$d/ffmpeg-7.1.tags")" >&2; exit 1; }
# A bad option: the same message.
for ff in ffmpeg ffmpeg-7.1; do
  if "$BIN/$ff" $in -frames:v 1 -vf "denoise_clvf=p=4" -f null - 2> "$d/$ff.err"; then exit 1; fi
  grep -m1 "patch size" "$d/$ff.err" | sed "s/.*\] //" > "$d/$ff.msg"
done
[ -s "$d/ffmpeg.msg" ] && cmp -s "$d/ffmpeg.msg" "$d/ffmpeg-7.1.msg" \
  || { echo "the error differs: 5.1 '$(cat "$d/ffmpeg.msg")', 7.1 '$(cat "$d/ffmpeg-7.1.msg")'" >&2; exit 1; }
echo "ffmpeg 7.1: $n filter graphs give 5.1's frames; the same tags ($(cat "$d/ffmpeg.tags")) and errors"
