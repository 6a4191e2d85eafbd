#!/usr/bin/env bash
# Installs what is needed, builds everything (FFmpeg 5.1 and 7.1 with the filters), and runs the
# whole test suite with ctest, then the sanitizer run (scripts/sanitize.sh: ASan + UBSan build of
# the library, tests and samples), a short fuzzing run (scripts/fuzz.sh: 30 s per libFuzzer target)
# and the Windows build with its interop tests under Wine (scripts/wine-test.sh).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${CLVF_BUILD_DIR:-$ROOT/build}
bash "$ROOT/scripts/build.sh"
# The filters in Debian 13's FFmpeg 7.1 too (tests/ffmpeg_versions.sh compares it with 5.1).
FFMPEG_SERIES=7.1 bash "$ROOT/scripts/build-ffmpeg.sh"
cd "$BUILD"
ctest --output-on-failure -j"$(nproc)" --timeout 1200
bash "$ROOT/scripts/sanitize.sh"
bash "$ROOT/scripts/fuzz.sh" 30
bash "$ROOT/scripts/wine-test.sh"
