#!/usr/bin/env bash
# Per-frame cost of sharing a 1080p NV12 surface with OpenCL, on each path that runs here
# (emulated, under Wine), beside hwdownload + hwupload, and clvf_scale on the surfaces against host
# frames: bench/interop_cost.cpp. Runs on PoCL (sharing rows: luma only, no CL_RG) and Oclgrind
# (both planes, no kernels). Usage: bash bench/interop_cost.sh [frames]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${CLVF_WINDOWS_BUILD_DIR:-$ROOT/build-windows}
FRAMES=${1:-30}
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/mingw-w64.cmake" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD" -j"$(nproc)" --target interop_cost
export WINEPREFIX=$BUILD/wine-prefix HOME=$BUILD/wine-home WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d;winedbg.exe=d"
mkdir -p "$HOME" "$BUILD/icd"
echo /usr/lib/oclgrind/liboclgrind-rt-icd.so > "$BUILD/icd/oclgrind.icd"
[ -e /etc/OpenCL/vendors/pocl.icd ] && cp /etc/OpenCL/vendors/pocl.icd "$BUILD/icd/"
export OCL_ICD_VENDORS=$BUILD/icd
xvfb-run -a -s "-screen 0 1024x768x24 -nolisten tcp" bash -c "
  [ -f '$WINEPREFIX/system.reg' ] || wineboot -i >/dev/null 2>&1
  CLVF_TEST_PLATFORM=Portable wine '$BUILD/bin/interop_cost.exe' $FRAMES scale
  CLVF_TEST_PLATFORM=Oclgrind wine '$BUILD/bin/interop_cost.exe' $FRAMES  # no kernels: they crash under Wine
  wineserver -k 2>/dev/null || true
"
