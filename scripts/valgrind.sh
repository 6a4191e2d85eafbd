#!/usr/bin/env bash
# Valgrind memcheck on end-to-end runs on PoCL: the C sample (scale_raw), the server sample (two
# threads sharing a device, frames in flight) and the built ffmpeg with the three clvf filters,
# small frames. Any error (invalid access, uninitialised value, definite leak outside the
# suppressions in tests/sanitizers/valgrind.supp) fails the run. Slow (PoCL compiles kernels
# under valgrind): minutes, so it is not part of scripts/test.sh.
#   bash scripts/valgrind.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${CLVF_BUILD_DIR:-$ROOT/build}/bin
command -v valgrind >/dev/null || { echo "valgrind: not installed (apt-get install valgrind)" >&2; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
export CLVF_CACHE_DIR=$d/cache
vg=(valgrind --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite --track-origins=yes
    --suppressions="$ROOT/tests/sanitizers/valgrind.supp" -q)
run() {
  local name=$1; shift
  echo "valgrind: $name"
  local t0=$SECONDS
  "${vg[@]}" "$@" > "$d/log" 2>&1 || { cat "$d/log" >&2; echo "valgrind: $name failed" >&2; exit 1; }
  echo "valgrind: $name clean ($((SECONDS - t0)) s)"
}
"$BIN/ffmpeg" -hide_banner -nostdin -loglevel error -f lavfi -i "testsrc2=size=160x90" -frames:v 3 -pix_fmt nv12 \
  -f rawvideo -y "$d/in.raw"
run "scale_raw (C API, 3 frames 160x90 -> 100x56)" "$BIN/scale_raw" nv12 160x90 100x56 "$d/in.raw" "$d/out.raw" pocl
run "server_streams (2 threads x 3 frames)" "$BIN/server_streams" 2 3 pocl
run "ffmpeg scale_clvf, colorspace_clvf, denoise_clvf (3 frames)" "$BIN/ffmpeg" -hide_banner -nostdin -loglevel error \
  -f rawvideo -pix_fmt nv12 -s 160x90 -i "$d/in.raw" \
  -vf "scale_clvf=w=128:h=72,denoise_clvf=s=4:p=3:r=5,colorspace_clvf=format=rgba" -f null -
echo "valgrind: no errors"
