#!/usr/bin/env bash
# Installs what is needed, builds everything, and runs the whole test suite with ctest.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${CLVF_BUILD_DIR:-$ROOT/build}
bash "$ROOT/scripts/build.sh"
cd "$BUILD"
ctest --output-on-failure -j"$(nproc)" --timeout 1200
