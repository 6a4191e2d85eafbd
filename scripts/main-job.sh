#!/usr/bin/env bash
# The main job: a real transcode through clvf. A noisy 1080p H.264 + AAC sample (10 s, made by the
# build's own ffmpeg) is decoded, scaled to 720p by scale_clvf (bicubic) and denoised by
# denoise_clvf (preset light) on the default OpenCL device (PoCL here; CLVF_DEVICE picks another),
# encoded with libx264, its audio re-encoded with FFmpeg's AAC encoder, into
# build/out/main-job-720p.mp4, and the throughput is printed.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${CLVF_BUILD_DIR:-$ROOT/build}
bash "$ROOT/scripts/build.sh"
FF=$BUILD/bin/ffmpeg
mkdir -p "$BUILD/samples" "$BUILD/out"
SAMPLE=$BUILD/samples/sample-1080p-h264-aac.mp4
if [ ! -s "$SAMPLE" ]; then
  echo "main-job: making a 10 s 1080p H.264 + AAC sample"
  "$FF" -hide_banner -loglevel error -f lavfi -i "testsrc2=size=1920x1080:rate=30,noise=alls=8:allf=t" \
    -f lavfi -i "sine=frequency=440:sample_rate=48000,aformat=channel_layouts=stereo" -t 10 \
    -c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p -c:a aac -b:a 128k -metadata:s:a:0 language=eng \
    -y "$SAMPLE.tmp.mp4"
  mv "$SAMPLE.tmp.mp4" "$SAMPLE"
fi
OUT=$BUILD/out/main-job-720p.mp4
CHAIN="scale_clvf=w=1280:h=720:algorithm=bicubic,denoise_clvf=preset=light"
echo "main-job: $SAMPLE -> $CHAIN -> libx264 -> $OUT"
start=$(date +%s.%N)
"$FF" -hide_banner -loglevel warning -stats -i "$SAMPLE" -vf "$CHAIN" \
  -c:v libx264 -preset veryfast -crf 20 -c:a aac -b:a 128k -y "$OUT.tmp.mp4"
end=$(date +%s.%N)
mv "$OUT.tmp.mp4" "$OUT"
frames=$("$BUILD/bin/ffprobe" -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames,width,height -of csv=p=0 "$OUT")
audio=$("$BUILD/bin/ffprobe" -v error -select_streams a:0 -show_entries stream=codec_name,channels,sample_rate:stream_tags=language -of csv=p=0 "$OUT")
[ -n "$audio" ] || { echo "main-job: the output has no audio stream" >&2; exit 1; }
echo "main-job: output $OUT (video width,height,frames: $frames; audio codec,rate,channels,language: $audio)"
awk -v s="$start" -v e="$end" -v f="${frames##*,}" 'BEGIN { printf "main-job: %d frames in %.2f s = %.1f fps (decode + scale_clvf + denoise_clvf + x264 encode, AAC audio)\n", f, e - s, f / (e - s) }'
