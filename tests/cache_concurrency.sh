#!/usr/bin/env bash
# The binary program cache written by several processes at once: 6 processes start together on one
# empty cache folder and compile the same programs. Every entry they leave must be whole (a later
# run takes each from the cache without a warning), no temporary file may be left, and every
# process must give the same output.
#   cache_concurrency.sh BIN_DIR
set -euo pipefail
BIN=$1
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
export CLVF_CACHE_DIR=$d/cache
"$BIN/ffmpeg" -hide_banner -nostdin -loglevel error -f lavfi -i "testsrc2=size=320x180" -frames:v 2 -pix_fmt nv12 \
  -f rawvideo -y "$d/in.raw"
pids=()
for i in 1 2 3 4 5 6; do
  "$BIN/scale_raw" nv12 320x180 200x112 "$d/in.raw" "$d/out$i.raw" pocl > "$d/log$i" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
for i in 2 3 4 5 6; do cmp "$d/out1.raw" "$d/out$i.raw"; done
[ -z "$(find "$d/cache" -name '*.tmp*')" ] || { echo "cache: temporary files left"; ls -la "$d/cache"; exit 1; }
entries=$(find "$d/cache" -type f | wc -l)
[ "$entries" -gt 0 ] || { echo "cache: no entries written"; exit 1; }
# A later run: every program from the cache, none refused, damaged or written again.
(cd "$d/cache" && sha256sum * | sort) > "$d/before"
CLVF_LOG=1 "$BIN/scale_raw" nv12 320x180 200x112 "$d/in.raw" "$d/again.raw" pocl > "$d/again.log" 2>&1
cmp "$d/out1.raw" "$d/again.raw"
if grep -E "damaged|not accepted|cannot write" "$d/again.log" "$d"/log*; then exit 1; fi
(cd "$d/cache" && sha256sum * | sort) | cmp - "$d/before"
echo "cache: 6 processes at once left $entries whole entries and no temporary file; outputs identical"
