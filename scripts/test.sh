#!/usr/bin/env bash
# Installs what is needed, builds everything (FFmpeg 5.1 and 7.1 with the filters), and runs the
# whole test suite with ctest, then the sanitizer run (scripts/sanitize.sh: ASan + UBSan build of
# the library, tests and samples), a short fuzzing run (scripts/fuzz.sh: 30 s per libFuzzer target)
# and the Windows build with its interop tests under Wine (scripts/wine-test.sh).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${CLVF_BUILD_DIR:-$ROOT/build}
# Each stage prints its duration, so a CI log shows where the time went.
stage() {
  local name=$1 t0=$SECONDS; shift
  echo "test.sh: $name"
  "$@"
  echo "test.sh: $name took $((SECONDS - t0)) s"
}
stage "build (clvf, FFmpeg 5.1)" bash "$ROOT/scripts/build.sh"
# The filters in Debian 13's FFmpeg 7.1 too (tests/ffmpeg_versions.sh compares it with 5.1), built
# quick (-O1, no debug information): only the tests run it.
stage "build (FFmpeg 7.1)" env FFMPEG_SERIES=7.1 FFMPEG_QUICK=1 bash "$ROOT/scripts/build-ffmpeg.sh"
cd "$BUILD"
stage ctest ctest --output-on-failure -j"$(nproc)" --timeout 1200
stage sanitizers bash "$ROOT/scripts/sanitize.sh"
stage fuzzing bash "$ROOT/scripts/fuzz.sh" 30
stage "Windows build and Wine" bash "$ROOT/scripts/wine-test.sh"
