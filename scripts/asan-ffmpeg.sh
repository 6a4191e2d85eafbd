#!/usr/bin/env bash
# The FFmpeg glue (filters/*.c) under AddressSanitizer and UndefinedBehaviorSanitizer: the glue
# compiled with them, put into a copy of the FFmpeg 5.1 build's libavfilter.a in place of the
# plain objects, and linked with FFmpeg's own (uninstrumented) objects and the sanitized libclvf
# from build-asan/ into build-asan/bin/ffmpeg and build-asan/bin/filter_threads. Then graphs
# through every clvf filter run under them: system-memory and OpenCL frames, temporal denoise, a
# chain, option errors, a truncated input file, and 4 threads of graphs at once. Any report or
# leak (outside tests/sanitizers/lsan.supp) fails. Called by scripts/sanitize.sh, after the
# library's sanitized build and with its environment; needs scripts/build.sh's FFmpeg first.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${CLVF_BUILD_DIR:-$ROOT/build}
ASAN=${CLVF_ASAN_BUILD_DIR:-$ROOT/build-asan}
OBJ=$BUILD/ffmpeg
SRC=$OBJ/src
[ -f "$OBJ/libavfilter/libavfilter.a" ] || { echo "asan-ffmpeg: no FFmpeg build in $OBJ (run scripts/build.sh)" >&2; exit 1; }
flags=(-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1)
out=$ASAN/ffmpeg-glue
mkdir -p "$out" "$ASAN/bin"

# FFmpeg's own compile flags for libavfilter, with the sanitizers added.
cflags=$(sed -n 's/^CFLAGS=//p' "$OBJ/ffbuild/config.mak")
cppflags=$(sed -n 's/^CPPFLAGS=//p' "$OBJ/ffbuild/config.mak")
objects=()
for f in clvf_filter vf_scale_clvf vf_denoise_clvf vf_colorspace_clvf vf_clvf; do
  # shellcheck disable=SC2086
  gcc -I"$OBJ" -I"$SRC" -I"$ROOT/include" $cppflags $cflags "${flags[@]}" -DHAVE_AV_CONFIG_H \
    -c "$SRC/libavfilter/$f.c" -o "$out/$f.o" 2> "$out/$f.log" || { cat "$out/$f.log" >&2; exit 1; }
  objects+=("$out/$f.o")
done
cp -f "$OBJ/libavfilter/libavfilter.a" "$out/libavfilter.a"
ar rc "$out/libavfilter.a" "${objects[@]}"  # same member names: the plain objects are replaced

libs=()
for lib in avdevice avfilter avformat avcodec postproc swresample swscale avutil; do
  [ "$lib" = avfilter ] && libs+=("$out/libavfilter.a") || libs+=("$OBJ/lib$lib/lib$lib.a")
done
extra=$(sed -n 's/^EXTRALIBS[-a-z]*=//p' "$OBJ/ffbuild/config.mak" | tr '\n' ' ' | sed 's/-lclvf//g')
link=(-L"$ASAN/lib" -Wl,-rpath,"$ASAN/lib" -lclvf)
# shellcheck disable=SC2086
gcc "${flags[@]}" -o "$ASAN/bin/ffmpeg" "$OBJ"/fftools/{ffmpeg_filter,ffmpeg_hw,ffmpeg_mux,ffmpeg_opt,cmdutils,opt_common,ffmpeg}.o \
  "${libs[@]}" "${link[@]}" $extra
# shellcheck disable=SC2086
gcc -std=c11 "${flags[@]}" -pthread -I"$SRC" -I"$OBJ" "$ROOT/samples/filter_threads.c" -o "$ASAN/bin/filter_threads" \
  "${libs[@]}" "${link[@]}" $extra
echo "asan-ffmpeg: $ASAN/bin/ffmpeg and $ASAN/bin/filter_threads built (clvf glue and libclvf sanitized)"

d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
ff=("$ASAN/bin/ffmpeg" -hide_banner -nostdin -loglevel error)
src=(-f lavfi -i "testsrc2=size=176x144:rate=25" -frames:v 6)
run() {  # run NAME EXPECT(ok|fail|any) ARGS...: a report fails the run whatever the exit status
  local name=$1 expect=$2; shift 2
  local status=0
  "$@" > "$d/log" 2>&1 || status=$?
  if grep -qE "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:" "$d/log" \
     || { [ "$expect" = ok ] && [ $status != 0 ]; } || { [ "$expect" = fail ] && [ $status = 0 ]; }; then
    cat "$d/log" >&2
    echo "asan-ffmpeg: $name: exit status $status, expected $expect" >&2
    exit 1
  fi
  echo "asan-ffmpeg: $name: clean"
}
run "three filters, system memory" ok "${ff[@]}" "${src[@]}" \
  -vf "scale_clvf=w=128:h=96:algorithm=lanczos,denoise_clvf=s=4:p=3:r=5:t=1,colorspace_clvf=format=rgba" -f null -
run "OpenCL frames" ok "${ff[@]}" -init_hw_device opencl=ocl -filter_hw_device ocl "${src[@]}" \
  -vf "format=yuv420p,hwupload,scale_clvf=w=96:h=72,denoise_clvf=s=3:p=3:r=3,colorspace_clvf=format=yuv420p:matrix=bt601,hwdownload,format=yuv420p" \
  -f null -
run "the clvf filter, a chain preset" ok "${ff[@]}" "${src[@]}" -vf "format=yuv420p,clvf=denoise-web-720p" -f null -
run "an unknown option" fail "${ff[@]}" "${src[@]}" -vf "scale_clvf=w=64:h=48:nope=1" -f null -
run "an option out of range" fail "${ff[@]}" "${src[@]}" -vf "denoise_clvf=s=99" -f null -
run "a chain with an error in its second stage" fail "${ff[@]}" "${src[@]}" \
  -vf "format=yuv420p,clvf='chain=scale_clvf=w=64\:h=48,denoise_clvf=p=4'" -f null -
"$BUILD/bin/ffmpeg" -hide_banner -nostdin -loglevel error "${src[@]}" -c:v libx264 -preset ultrafast -y "$d/in.mkv"
head -c "$(($(stat -c %s "$d/in.mkv") / 2))" "$d/in.mkv" > "$d/cut.mkv"
run "a truncated input file" any "${ff[@]}" -i "$d/cut.mkv" -vf "scale_clvf=w=64:h=48,denoise_clvf=t=1" -f null -
run "filter_threads 4 x 20 frames, shared device" ok "$ASAN/bin/filter_threads" 4 20 shared
echo "asan-ffmpeg: no reports"
