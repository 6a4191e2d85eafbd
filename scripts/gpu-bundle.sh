#!/usr/bin/env bash
# Packs what the NVIDIA machine needs to run clvf there into .gpu/ (ignored by git; the device
# tool carries it): the lean CUDA FFmpeg (build/bin/ffmpeg-gpu, built here when missing), the clvf
# library, the CUDA-frame tests, the kernel checkers (clvf_tests: CLVF_TEST_DEVICE=gpu), the C API
# benchmark (bench/throughput.c), clinfo, and every shared library they link that the machine may
# lack (the ocl-icd loader, x264, x265, fmt, xxhash), stripped to stay under the carry limit, plus
# an ICD folder naming NVIDIA's OpenCL driver. On the machine: source .gpu/env.sh, then run
# tests/gpu/cuda_frames.sh. Nothing here needs a GPU.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${CLVF_BUILD_DIR:-$ROOT/build}
OUT=$ROOT/.gpu
[ -x "$BUILD/bin/ffmpeg-gpu" ] || FFMPEG_FLAVOUR=gpu bash "$ROOT/scripts/build-ffmpeg.sh"
cmake --build "$BUILD" --target clvf_interop_unit_tests clvf throughput clvf_tests >/dev/null
rm -rf "$OUT" && mkdir -p "$OUT/bin" "$OUT/lib" "$OUT/icd"
g++ -std=c++20 -O1 -I"$ROOT" -o "$BUILD/bin/semaphore_probe" "$ROOT/tests/gpu/semaphore_probe.cpp" -lOpenCL -ldl
for b in "$BUILD/bin/ffmpeg-gpu" "$BUILD/bin/clvf_interop_unit_tests" "$BUILD/bin/semaphore_probe" "$BUILD/bin/throughput" \
  "$BUILD/bin/clvf_tests" /usr/bin/clinfo; do
  strip -o "$OUT/bin/$(basename "$b")" "$b"
done
strip -o "$OUT/lib/libclvf.so.0" "$BUILD/lib/libclvf.so.0"
# The libraries they link, less the C and C++ runtimes (the machine's are newer) and the CUDA
# driver (the machine's own, loaded at run time).
for b in "$OUT"/bin/* "$OUT/lib/libclvf.so.0"; do
  LD_LIBRARY_PATH=$BUILD/lib ldd "$b" | awk '$3 ~ /^\// {print $3}'
done | sort -u | grep -vE '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt|ld-linux[^/]*)\.so' \
  | while read -r lib; do
  [ "$(basename "$lib")" = libclvf.so.0 ] || strip -o "$OUT/lib/$(basename "$lib")" "$lib"
done
echo libnvidia-opencl.so.1 > "$OUT/icd/nvidia.icd"
cat > "$OUT/env.sh" <<'ENV'
# Sourced on the NVIDIA machine: the carried libraries first, NVIDIA's OpenCL as the only ICD.
GPU=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH=$GPU/bin:$PATH LD_LIBRARY_PATH=$GPU/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} OCL_ICD_VENDORS=$GPU/icd
ENV
du -sh "$OUT"
