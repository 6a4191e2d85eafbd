#!/usr/bin/env bash
# samples/transcode.c (libavformat + libavcodec + the C API, no libavfilter): an H.264 file in,
# a smaller H.264 file out with every frame, tagged BT.709; a decoder format clvf does not take
# is refused with a message naming what is allowed.
set -euo pipefail
BIN=$1
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
"$BIN/ffmpeg" -hide_banner -nostdin -loglevel error -f lavfi -i "testsrc2=size=320x240:rate=25" -frames:v 30 \
  -c:v libx264 -pix_fmt yuv420p -y "$d/in.mp4"
"$BIN/transcode" "$d/in.mp4" "$d/out.mp4" 160x120
got=$("$BIN/ffprobe" -v error -count_frames -show_entries stream=codec_name,width,height,color_space,nb_read_frames \
  -of csv=p=0 "$d/out.mp4")
[ "$got" = "h264,160,120,bt709,30" ] || { echo "transcode output: $got" >&2; exit 1; }
"$BIN/ffmpeg" -hide_banner -nostdin -loglevel error -f lavfi -i "testsrc2=size=64x48" -frames:v 2 -c:v rawvideo \
  -pix_fmt yuv420p10le -y "$d/ten.nut"
if "$BIN/transcode" "$d/ten.nut" "$d/x.mp4" 32x24 2> "$d/err"; then exit 1; fi
grep -q "decoded frames are yuv420p10le; allowed: yuv420p, nv12, p010le, yuv444p" "$d/err"
echo "sample transcode: 30 frames 320x240 -> 160x120 H.264 BT.709; yuv420p10le refused"
