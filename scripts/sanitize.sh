#!/usr/bin/env bash
# The library, its tests and samples built with AddressSanitizer and UndefinedBehaviorSanitizer
# (build-asan/), then the kernel checkers (small frames), the async and parameter tests, the
# samples and the fault-injection sweeps run under them, zero-copy and staged: any report fails
# the run. Part of scripts/test.sh.
# Leaks are checked; tests/sanitizers/lsan.supp lists PoCL's and LLVM's own (see there).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${CLVF_ASAN_BUILD_DIR:-$ROOT/build-asan}
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
  > "$BUILD.configure.log" 2>&1 || { cat "$BUILD.configure.log" >&2; exit 1; }
cmake --build "$BUILD" -j"$(nproc)" --target clvf_tests clvf_fault_tests server_streams scale_raw
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1
export LSAN_OPTIONS=suppressions=$ROOT/tests/sanitizers/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export CLVF_CHECK_SMALL=1 CLVF_CACHE_DIR=$BUILD/test-cache
for staged in 0 1; do
  echo "sanitize: clvf_tests (staged copies: $staged)"
  CLVF_NO_ZERO_COPY=$staged "$BUILD/bin/clvf_tests" --gtest_brief=1 > "$BUILD/tests-$staged.log" 2>&1 \
    || { tail -60 "$BUILD/tests-$staged.log" >&2; exit 1; }
  echo "sanitize: server_streams 4 20 (staged copies: $staged)"
  CLVF_NO_ZERO_COPY=$staged "$BUILD/bin/server_streams" 4 20 > "$BUILD/server-$staged.log" 2>&1 \
    || { tail -60 "$BUILD/server-$staged.log" >&2; exit 1; }
done
echo "sanitize: clvf_fault_tests (every OpenCL call of a job failing in turn)"
"$BUILD/bin/clvf_fault_tests" --gtest_brief=1 > "$BUILD/fault.log" 2>&1 || { tail -60 "$BUILD/fault.log" >&2; exit 1; }
echo "sanitize: no reports"
