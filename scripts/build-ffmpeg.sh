#!/usr/bin/env bash
# Fetches Debian's FFmpeg 5.1 source (apt-get source, into .deps/), applies clvf's registration
# patches, links the filter glue from filters/ and builds FFmpeg against build/lib/libclvf.so.
# Result: build/bin/ffmpeg and build/bin/ffprobe, and the samples built against its libraries.
# Incremental: a re-run only rebuilds what changed.
#
# FFMPEG_SERIES=7.1 builds Debian 13's FFmpeg 7.1 the same way instead (into build/ffmpeg-7.1/;
# result build/bin/ffmpeg-7.1; no samples). FFMPEG_SRC=/path/to/ffmpeg uses a tree of your own
# (of that series) instead of fetching Debian's. FFMPEG_FLAVOUR=gpu builds 5.1 with
# filters/ffmpeg-5.1/gpu.flags instead of Debian's (build/bin/ffmpeg-gpu: the lean CUDA build that
# scripts/gpu-bundle.sh carries to the NVIDIA machine). FFMPEG_QUICK=1 adds --disable-optimizations
# (gcc -O1; the same features and Debian's flags) for a build that only tests run: scripts/test.sh
# builds 7.1 so (README.md, "Build time", has the figures).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${CLVF_BUILD_DIR:-$ROOT/build}
DEPS=$ROOT/.deps
SERIES=${FFMPEG_SERIES:-5.1}
suffix=$([ "$SERIES" = 5.1 ] || echo "-$SERIES")
SRC=${FFMPEG_SRC:-$DEPS/ffmpeg$suffix}
FLAGS=debian
if [ "${FFMPEG_FLAVOUR:-}" = gpu ]; then FLAGS=gpu; suffix=-gpu; fi
OBJ=$BUILD/ffmpeg$suffix
JOBS=$(nproc)

source "$ROOT/scripts/ffmpeg-source.sh"

CC="gcc"; CXX="g++"
if command -v ccache >/dev/null; then CC="ccache gcc"; CXX="ccache g++"; fi

# Debian's own configuration of this FFmpeg (filters/ffmpeg-SERIES/debian.flags: every library
# and feature its ffmpeg package has; configure fails if one is missing), then clvf's own.
mapfile -t DEBIAN < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$ROOT/filters/ffmpeg-$SERIES/$FLAGS.flags")
CONFIG=(
  "${DEBIAN[@]}"
  --prefix="$OBJ/install" --cc="$CC" --cxx="$CXX"
  --disable-doc  # the manual pages are Debian's ffmpeg-doc; not needed to run
  # Debian's ffmpeg carries no debug information either (its -dbgsym package does); without it
  # the build is shorter and build/bin/ffmpeg smaller (its symbols stay: it is not stripped).
  --disable-debug
  --extra-cflags="-I$ROOT/include"
  --extra-ldflags="-L$BUILD/lib -Wl,-rpath,$BUILD/lib"
  --extra-libs="-lclvf"
)
if [ "${FFMPEG_QUICK:-0}" = 1 ]; then CONFIG+=(--disable-optimizations); fi
if [ "$SERIES" = 7.1 ]; then
  ffnvcodec_13
  export PKG_CONFIG_PATH=$FFNVCODEC_PC${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
fi
stamp="$(printf '%s\n' "${CONFIG[@]}" "${PKG_CONFIG_PATH:-}" "$(cat "${FFNVCODEC_PC:-/nonexistent}/ffnvcodec.pc" 2>/dev/null)" \
  "$(cat "$ROOT"/filters/ffmpeg-"$SERIES"/*.patch)" | sha256sum | cut -c1-16)"
mkdir -p "$OBJ" "$BUILD/bin"
if [ ! -f "$OBJ/config.h" ] || [ "$(cat "$OBJ/.clvf-config" 2>/dev/null)" != "$stamp" ]; then
  echo "build-ffmpeg: configure"
  (cd "$OBJ" && "$SRC/configure" "${CONFIG[@]}" > configure.log 2>&1) \
    || { tail -30 "$OBJ/configure.log" >&2; exit 1; }
  echo "$stamp" > "$OBJ/.clvf-config"
fi
for f in scale_clvf denoise_clvf colorspace_clvf clvf; do
  grep -qs "CONFIG_${f^^}_FILTER 1" "$OBJ/config.h" "$OBJ/config_components.h" \
    || { echo "build-ffmpeg: configure did not enable $f" >&2; exit 1; }
done
echo "build-ffmpeg: make -j$JOBS"
make -C "$OBJ" -j"$JOBS" ffmpeg ffprobe > "$OBJ/make.log" 2>&1 || { grep -E 'error|Error' -A3 "$OBJ/make.log" | head -40 >&2; exit 1; }
cp -f "$OBJ/ffmpeg" "$BUILD/bin/ffmpeg$suffix"
cp -f "$OBJ/ffprobe" "$BUILD/bin/ffprobe$suffix"
echo "build-ffmpeg: $BUILD/bin/ffmpeg$suffix ready"
[ "$SERIES" = 5.1 ] && [ "$FLAGS" = debian ] || exit 0  # the samples are built once, against 5.1

# samples/transcode.c uses these FFmpeg libraries directly (no libavfilter): linked statically,
# with the external libraries FFmpeg's configure found for them.
extra=$(grep -E '^EXTRALIBS(-avformat|-avcodec|-swresample|-avutil)?=' "$OBJ/ffbuild/config.mak" | cut -d= -f2- | tr '\n' ' ')
gcc -std=c11 -O2 -Wall -I"$SRC" -I"$OBJ" -I"$ROOT/include" "$ROOT/samples/transcode.c" \
  "$OBJ/libavformat/libavformat.a" "$OBJ/libavcodec/libavcodec.a" "$OBJ/libswresample/libswresample.a" \
  "$OBJ/libavutil/libavutil.a" -L"$BUILD/lib" -Wl,-rpath,"$BUILD/lib" -lclvf $extra -o "$BUILD/bin/transcode"
echo "build-ffmpeg: $BUILD/bin/transcode (samples/transcode.c) ready"

# samples/filter_threads.c: libavfilter graphs with the clvf filters on several threads.
extra=$(grep -E '^EXTRALIBS(-avfilter|-postproc|-swscale|-avformat|-avcodec|-swresample|-avutil)?=' "$OBJ/ffbuild/config.mak" \
  | cut -d= -f2- | tr '\n' ' ')
gcc -std=c11 -O2 -Wall -pthread -I"$SRC" -I"$OBJ" "$ROOT/samples/filter_threads.c" \
  "$OBJ/libavfilter/libavfilter.a" "$OBJ/libpostproc/libpostproc.a" "$OBJ/libswscale/libswscale.a" "$OBJ/libavformat/libavformat.a" \
  "$OBJ/libavcodec/libavcodec.a" "$OBJ/libswresample/libswresample.a" "$OBJ/libavutil/libavutil.a" \
  -L"$BUILD/lib" -Wl,-rpath,"$BUILD/lib" -lclvf $extra -o "$BUILD/bin/filter_threads"
echo "build-ffmpeg: $BUILD/bin/filter_threads (samples/filter_threads.c) ready"
