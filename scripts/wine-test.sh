#!/usr/bin/env bash
# The Windows build and its tests. Cross-compiles the library (libclvf.dll) and the interop tests
# with mingw-w64, then runs the tests under Wine with a virtual display (Xvfb): real Direct3D 11
# and 9Ex devices, OpenCL through Wine's opencl.dll to this machine's platforms. The whole suite
# runs on PoCL; the cases PoCL cannot serve (NV12 chroma needs CL_RG images) and the checks that
# build no kernels run again on Oclgrind. (Oclgrind's kernel builds crash under Wine here, so
# kernel-building tests stay on PoCL.) Then ffmpeg.exe, cross-built with the clvf filters
# (scripts/build-ffmpeg-windows.sh), must give the Linux build's frames exactly, and so must
# FFmpeg's DXVA2 frames (D3D9Ex NV12 surfaces in a caller-supplied pool) pushed through libavfilter
# and each clvf filter by tests/interop/dxva2_graph.c.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${CLVF_WINDOWS_BUILD_DIR:-$ROOT/build-windows}

# Quick (-O1, no debug information): these binaries only run the tests below, and build in about
# two thirds of the time -O2 -g took.
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/mingw-w64.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" >/dev/null
cmake --build "$BUILD" -j"$(nproc)"
# ffmpeg.exe is built beside the interop tests (its configure keeps one core busy for minutes).
setsid bash "$ROOT/scripts/build-ffmpeg-windows.sh" > "$BUILD/ffmpeg-windows.log" 2>&1 &
ffmpeg_build=$!
trap 'kill -- -$ffmpeg_build 2>/dev/null || true' EXIT  # the build's whole group, should a test fail first

export WINEPREFIX=$BUILD/wine-prefix HOME=$BUILD/wine-home WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d;winedbg.exe=d"
mkdir -p "$HOME"
ICD=$BUILD/icd
mkdir -p "$ICD"
echo /usr/lib/oclgrind/liboclgrind-rt-icd.so > "$ICD/oclgrind.icd"
[ -e /etc/OpenCL/vendors/pocl.icd ] && cp /etc/OpenCL/vendors/pocl.icd "$ICD/"
export OCL_ICD_VENDORS=$ICD

TESTS=$BUILD/bin/clvf_interop_tests.exe
NO_KERNELS='DX9Surface.*:D3D11Texture.*:CtsMatrix.Textures*:D3D11Buffer.B*:SharingContext.C1*:SharingContext.C2*:SharingContext.C4*:SharingContext.C5*:Mapping.P2*:Mapping.P3*'
xvfb-run -a -s "-screen 0 1024x768x24 -nolisten tcp" bash -c "
  set -euo pipefail
  [ -f '$WINEPREFIX/system.reg' ] || wineboot -i >/dev/null 2>&1 || {
    echo 'wine-test: wineboot failed on a fresh prefix; once more, with its output'
    wineserver -k 2>/dev/null || true
    wineboot -i
  }
  echo 'wine-test: interop tests on PoCL'
  CLVF_TEST_PLATFORM=Portable timeout 600 bash '$ROOT/scripts/gtest.sh' wine '$TESTS' --gtest_brief=1
  echo 'wine-test: interop tests without kernels on Oclgrind (CL_RG: NV12 chroma planes)'
  CLVF_TEST_PLATFORM=Oclgrind timeout 600 bash '$ROOT/scripts/gtest.sh' wine '$TESTS' --gtest_brief=1 \
    --gtest_filter='$NO_KERNELS'
  wineserver -k 2>/dev/null || true
"
wait $ffmpeg_build || { tail -40 "$BUILD/ffmpeg-windows.log" >&2; echo "wine-test: the Windows ffmpeg build failed" >&2; exit 1; }
cat "$BUILD/ffmpeg-windows.log"
xvfb-run -a -s "-screen 0 1024x768x24 -nolisten tcp" bash -c "
  set -euo pipefail
  echo 'wine-test: ffmpeg.exe with the clvf filters against the Linux build (frame checksums, the default PoCL device)'
  for vf in format=nv12,scale_clvf=w=160:h=120 format=yuv420p,denoise_clvf format=nv12,colorspace_clvf=matrix=bt709 \
            format=yuv420p,clvf=denoise-web-720p; do
    args=\"-hide_banner -loglevel error -f lavfi -i testsrc2=s=320x240:r=25:d=0.4 -vf \$vf -f framemd5\"
    OCL_ICD_VENDORS=/etc/OpenCL/vendors wine '$BUILD/bin/ffmpeg.exe' \$args -y '$BUILD/windows.md5'
    OCL_ICD_VENDORS=/etc/OpenCL/vendors '$ROOT/build/bin/ffmpeg' \$args -y '$BUILD/linux.md5'
    if ! cmp -s <(grep -v '^#' '$BUILD/windows.md5') <(grep -v '^#' '$BUILD/linux.md5'); then
      echo \"wine-test: ffmpeg.exe -vf \$vf differs from the Linux build\" >&2; exit 1
    fi
    echo \"  -vf \$vf: \$(grep -vc '^#' '$BUILD/windows.md5') frames identical\"
  done
  echo 'wine-test: DXVA2 frames through libavfilter and the clvf filters (tests/interop/dxva2_graph.c) against the Linux build'
  for vf in scale_clvf=w=160:h=90 denoise_clvf denoise_clvf=t=1 colorspace_clvf=matrix=bt709:in_matrix=bt601; do
    OCL_ICD_VENDORS=/etc/OpenCL/vendors wine '$BUILD/bin/dxva2_graph.exe' \$vf 320 180 4 '$BUILD/in.nv12' '$BUILD/windows.nv12'
    OCL_ICD_VENDORS=/etc/OpenCL/vendors '$ROOT/build/bin/ffmpeg' -hide_banner -loglevel error -f rawvideo -pix_fmt nv12 \
      -s 320x180 -i '$BUILD/in.nv12' -vf \$vf -f rawvideo -y '$BUILD/linux.nv12'
    if ! cmp -s '$BUILD/windows.nv12' '$BUILD/linux.nv12'; then
      echo \"wine-test: DXVA2 frames through \$vf differ from the Linux build\" >&2; exit 1
    fi
    echo \"  \$vf: DXVA2 in, DXVA2 out, identical to the Linux build\"
  done
  wineserver -k 2>/dev/null || true
"
echo "wine-test: passed"
