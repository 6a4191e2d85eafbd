#!/usr/bin/env bash
# samples/transcode.c (libavformat + libavcodec + a clvf chain through the C API, no libavfilter):
# an H.264 file in, a smaller H.264 file out with every frame, tagged as the chain says (also with
# a temporal denoise that holds frames back until the end); a decoder format clvf does not take and
# a bad chain are refused with messages naming what is allowed.
set -euo pipefail
BIN=$1
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
"$BIN/ffmpeg" -hide_banner -nostdin -loglevel error -f lavfi -i "testsrc2=size=320x240:rate=25" -frames:v 30 \
  -c:v libx264 -pix_fmt yuv420p -y "$d/in.mp4"
probe() {
  "$BIN/ffprobe" -v error -count_frames -show_entries stream=codec_name,width,height,color_space,nb_read_frames \
    -of csv=p=0 "$1"
}
"$BIN/transcode" "$d/in.mp4" "$d/out.mp4" "scale_clvf=w=160:h=-2:algorithm=spline36:format=yuv420p:matrix=bt709"
got=$(probe "$d/out.mp4")
[ "$got" = "h264,160,120,bt709,30" ] || { echo "transcode output: $got" >&2; exit 1; }
"$BIN/transcode" "$d/in.mp4" "$d/out2.mp4" "denoise_clvf=preset=light:t=2,scale_clvf=preset=half"
got=$(probe "$d/out2.mp4")
[ "$got" = "h264,160,120,unknown,30" ] || { echo "transcode output (temporal denoise): $got" >&2; exit 1; }
"$BIN/ffmpeg" -hide_banner -nostdin -loglevel error -f lavfi -i "testsrc2=size=64x48" -frames:v 2 -c:v rawvideo \
  -pix_fmt yuv420p10le -y "$d/ten.nut"
if "$BIN/transcode" "$d/ten.nut" "$d/x.mp4" "scale_clvf=w=32:h=24" 2> "$d/err"; then exit 1; fi
grep -q "decoded frames are yuv420p10le; allowed: yuv420p, nv12, p010le, yuv444p" "$d/err"
if "$BIN/transcode" "$d/in.mp4" "$d/x.mp4" "web-4k" 2> "$d/err"; then exit 1; fi
grep -q "preset 'web-4k' is not known for chains; known: web-720p" "$d/err"
[ ! -e "$d/x.mp4" ] || { echo "a refused chain left an output file" >&2; exit 1; }
echo "sample transcode: 30 frames 320x240 -> 160x120 H.264 BT.709, and through a temporal denoise; yuv420p10le and an unknown chain refused"
