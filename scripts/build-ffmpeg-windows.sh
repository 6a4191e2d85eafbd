#!/usr/bin/env bash
# FFmpeg 5.1 for Windows with the clvf filters, cross-built with mingw-w64 (static, with the
# dxva2 and d3d11va hardware contexts and OpenCL), linked with the Windows build of the library.
# Result: build-windows/bin/ffmpeg.exe, and the FFmpeg libraries in build-windows/ffmpeg for the
# Windows tests. Needs the Windows build of the library first (scripts/wine-test.sh makes it).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${CLVF_WINDOWS_BUILD_DIR:-$ROOT/build-windows}
DEPS=$ROOT/.deps
SERIES=5.1
SRC=${FFMPEG_SRC:-$DEPS/ffmpeg}
OBJ=$BUILD/ffmpeg
source "$ROOT/scripts/ffmpeg-source.sh"

CC="x86_64-w64-mingw32-gcc-posix"; CXX="x86_64-w64-mingw32-g++-posix"
if command -v ccache >/dev/null; then CC="ccache $CC"; CXX="ccache $CXX"; fi
CONFIG=(
  --prefix="$OBJ/install" --target-os=mingw32 --arch=x86_64 --cross-prefix=x86_64-w64-mingw32-
  --enable-cross-compile --cc="$CC" --cxx="$CXX"
  --disable-doc --disable-ffplay --disable-ffprobe --disable-debug --enable-gpl --enable-version3
  --disable-everything --disable-autodetect --enable-w32threads --enable-static --disable-shared
  --enable-opencl --enable-dxva2 --enable-d3d11va
  --enable-decoder=rawvideo,wrapped_avframe --enable-encoder=rawvideo,wrapped_avframe
  --enable-demuxer=rawvideo,yuv4mpegpipe,lavfi --enable-muxer=rawvideo,null,framemd5,yuv4mpegpipe
  --enable-protocol=file,pipe --enable-indev=lavfi
  --enable-filter=scale,format,hwupload,hwdownload,hwmap,null,testsrc2,color,scale_clvf,denoise_clvf,colorspace_clvf,clvf,buffer,buffersink,nullsink
  --extra-cflags="-I$ROOT/include -I$BUILD/host-headers"
  --extra-ldflags="-L$BUILD/lib -static"
  # The library's static archive, with what it needs: one self-contained ffmpeg.exe.
  --extra-libs="-lclvf_core -lstdc++ -lOpenCL -ld3d11 -ld3d9 -ldxva2 -ldxgi"
)
stamp="$(printf '%s\n' "${CONFIG[@]}" "$(cat "$ROOT"/filters/ffmpeg-"$SERIES"/*.patch)" | sha256sum | cut -c1-16)"
mkdir -p "$OBJ" "$BUILD/bin"
if [ ! -f "$OBJ/config.h" ] || [ "$(cat "$OBJ/.clvf-config" 2>/dev/null)" != "$stamp" ]; then
  echo "build-ffmpeg-windows: configure"
  (cd "$OBJ" && "$SRC/configure" "${CONFIG[@]}" > configure.log 2>&1) \
    || { tail -30 "$OBJ/configure.log" >&2; exit 1; }
  echo "$stamp" > "$OBJ/.clvf-config"
fi
echo "build-ffmpeg-windows: make -j$(nproc)"
make -C "$OBJ" -j"$(nproc)" ffmpeg.exe > "$OBJ/make.log" 2>&1 || { grep -E 'error|Error' -A3 "$OBJ/make.log" | head -40 >&2; exit 1; }
cp -f "$OBJ/ffmpeg.exe" "$BUILD/bin/"
echo "build-ffmpeg-windows: $BUILD/bin/ffmpeg.exe ready"

# tests/interop/dxva2_graph.c: DXVA2 frames through libavfilter and a clvf filter (run by
# scripts/wine-test.sh), linked statically with the libraries just built.
extra=$(grep -E '^EXTRALIBS(-avfilter|-swscale|-avformat|-avcodec|-swresample|-avutil)?=' "$OBJ/ffbuild/config.mak" \
  | cut -d= -f2- | tr '\n' ' ')
x86_64-w64-mingw32-gcc-posix -std=c11 -O2 -Wall -I"$SRC" -I"$OBJ" -I"$BUILD/host-headers" \
  "$ROOT/tests/interop/dxva2_graph.c" "$OBJ/libavfilter/libavfilter.a" "$OBJ/libswscale/libswscale.a" \
  "$OBJ/libavformat/libavformat.a" "$OBJ/libavcodec/libavcodec.a" "$OBJ/libavutil/libavutil.a" \
  -static -L"$BUILD/lib" $extra -o "$BUILD/bin/dxva2_graph.exe"
echo "build-ffmpeg-windows: $BUILD/bin/dxva2_graph.exe ready"
