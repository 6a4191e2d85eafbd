#!/usr/bin/env bash
# The library, its tests and samples built with AddressSanitizer and UndefinedBehaviorSanitizer
# (build-asan/), then the kernel checkers (small frames), the async and parameter tests, the
# samples, the fault-injection sweeps and the CUDA-frame tests (fake driver) run under them, zero-copy and staged, and the FFmpeg
# glue in ffmpeg graphs (scripts/asan-ffmpeg.sh): any report fails the run. Part of
# scripts/test.sh; its logs are in build-asan/*.log.
# Leaks are checked; tests/sanitizers/lsan.supp lists PoCL's and LLVM's own (see there). The test
# programs check when their last test has finished (tests/sanitizers/leak_check_at_end.cpp says why).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${CLVF_ASAN_BUILD_DIR:-$ROOT/build-asan}
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
  > "$BUILD.configure.log" 2>&1 || { cat "$BUILD.configure.log" >&2; exit 1; }
cmake --build "$BUILD" -j"$(nproc)" --target clvf clvf_tests clvf_fault_tests server_streams scale_raw \
  clvf_interop_unit_tests
# intercept_tls_get_addr=0: Debian 12's libasan (GCC 12) takes a dynamic TLS block that happens to
# start 16 bytes into a page for a pre-2.25 glibc header and reads the words before it; at the leak
# check its tracer then dies ("Tracer caught signal 11") after every test has passed, in two CI
# runs of the fault sweeps on 2026-12-06. Without the interceptor, dynamic TLS is not tracked.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1:intercept_tls_get_addr=0
export LSAN_OPTIONS=suppressions=$ROOT/tests/sanitizers/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export CLVF_CHECK_SMALL=1 CLVF_CACHE_DIR=$BUILD/test-cache
# The kernels ctest built seed this cache (cp -n: what is here stays): PoCL's compiler is several
# times slower under the sanitizers, and each of the two runs below built every program itself
# (clvf_tests here: 225 s with an empty cache, 93 s seeded). The programs ctest did not build are
# built by unsanitized runs first (below); the cache's rebuild paths (ProgramCacheTest, the fault
# sweeps) still compile here.
mkdir -p "$CLVF_CACHE_DIR"
seed=${CLVF_BUILD_DIR:-$ROOT/build}/test-cache
if [ -d "$seed" ]; then cp -rn "$seed/." "$CLVF_CACHE_DIR/" || echo "sanitize: could not seed the kernel cache from $seed"; fi
# Each run below keeps one core busy (frames are small): two at a time, each with its own log.
pair() {  # pair NAME1 CMD1 -- NAME2 CMD2: runs both, fails if either fails, showing its log's end
  local a=() b=() seen=0
  for x in "$@"; do
    if [ "$x" = -- ]; then seen=1; elif [ $seen = 0 ]; then a+=("$x"); else b+=("$x"); fi
  done
  echo "sanitize: ${a[0]} | ${b[0]}"
  "${a[@]:1}" > "$BUILD/${a[0]}.log" 2>&1 & local pa=$!
  "${b[@]:1}" > "$BUILD/${b[0]}.log" 2>&1 & local pb=$!
  local failed=()
  wait $pa || failed+=("${a[0]}")
  wait $pb || failed+=("${b[0]}")
  for f in "${failed[@]}"; do tail -60 "$BUILD/$f.log" >&2; echo "sanitize: $f failed" >&2; done
  [ ${#failed[@]} = 0 ]
}
# scripts/gtest.sh fails a run whose filter selected no test.
gtest=(bash "$ROOT/scripts/gtest.sh")
# The small frames make programs ctest's full-size runs did not, and PoCL compiles each about three
# times slower under the sanitizers (its LLVM allocates through ASan's allocator): the pair below
# spent most of its 460 s in PoCL's compiler. The unsanitized tests, two shards at a time, first
# put those programs in both caches (clvf's and PoCL's), so the sanitized runs spend their time in
# clvf's code, which is what they check.
main_tests=${CLVF_BUILD_DIR:-$ROOT/build}/bin/clvf_tests
shard() { GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$1 "$main_tests" --gtest_brief=1; }
if [ -x "$main_tests" ]; then pair warm-1 shard 0 -- warm-2 shard 1
else echo "sanitize: no unsanitized $main_tests (scripts/build.sh) to build the programs first; PoCL compiles them under the sanitizers"; fi
runs() { CLVF_NO_ZERO_COPY=$1 "${gtest[@]}" "$BUILD/bin/clvf_tests" --gtest_brief=1 && CLVF_NO_ZERO_COPY=$1 "$BUILD/bin/server_streams" 4 20; }
pair zero-copy runs 0 -- staged runs 1
# The fault sweeps (every OpenCL call and every allocation of a job failing in turn), in two
# halves of about equal time. A job costs about ten times as much here, so a clean job runs once,
# after each sweep's last faulted job, rather than after every one (tests/test_fault_injection.cpp
# says why that still covers the state a faulted job leaves; ctest's unsanitized sweeps run one
# after each): one after each, the halves took 919 and 1,012 s; so, 345 and 345 s.
export CLVF_FAULT_CLEAN_JOB=end
half='FaultInjection.ChainInFlight:FaultInjection.ScaleWithStagedCopies:FaultInjection.AllocationsScale'
half+=':FaultInjection.DenoiseTemporal:FaultInjection.AllocationsDenoiseTemporal:FaultInjection.DenoiseSpatial'
pair faults-1 "${gtest[@]}" "$BUILD/bin/clvf_fault_tests" --gtest_brief=1 --gtest_filter="$half" \
  -- faults-2 "${gtest[@]}" "$BUILD/bin/clvf_fault_tests" --gtest_brief=1 --gtest_filter="-$half"
# CUDA frames on the fake CUDA driver: lookups, copies, slots and buffer lifetimes.
echo "sanitize: cuda-frames"
"${gtest[@]}" "$BUILD/bin/clvf_interop_unit_tests" --gtest_brief=1 --gtest_filter='*Cuda*' > "$BUILD/cuda-frames.log" 2>&1 \
  || { tail -60 "$BUILD/cuda-frames.log" >&2; exit 1; }
# The FFmpeg glue (filters/*.c) sanitized too, in ffmpeg graphs.
echo "sanitize: ffmpeg-glue"
bash "$ROOT/scripts/asan-ffmpeg.sh" > "$BUILD/ffmpeg-glue.log" 2>&1 || { tail -60 "$BUILD/ffmpeg-glue.log" >&2; exit 1; }
echo "sanitize: no reports"
