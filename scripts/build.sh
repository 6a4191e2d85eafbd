#!/usr/bin/env bash
# Installs what is needed, builds the clvf library and tests (build/), then FFmpeg with the clvf
# filters (build/bin/ffmpeg). Incremental.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${CLVF_BUILD_DIR:-$ROOT/build}
bash "$ROOT/scripts/setup.sh"
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build "$BUILD" -j"$(nproc)"
bash "$ROOT/scripts/build-ffmpeg.sh"
