#!/usr/bin/env bash
# libFuzzer (clang, Debian's libclang-rt) with AddressSanitizer and UndefinedBehaviorSanitizer on
# what clvf parses and plans: tests/fuzz/fuzz_text.cpp (device specs, preset files, names) and
# tests/fuzz/fuzz_planning.cpp (scale parameters, resampling and block tables) and
# tests/fuzz/fuzz_interop.cpp (the sharing layer's argument checks and state machine). Builds
# build-fuzz/, then runs the targets together, each for SECONDS (default 30), from its corpus in
# tests/fuzz/corpus; a crash, sanitizer report or broken invariant fails the run and leaves the
# input in build-fuzz/.
#   bash scripts/fuzz.sh [SECONDS]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${CLVF_FUZZ_BUILD_DIR:-$ROOT/build-fuzz}
SECONDS_EACH=${1:-30}
flags="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" -DCLVF_FUZZ=ON \
  > "$BUILD.configure.log" 2>&1 || { cat "$BUILD.configure.log" >&2; exit 1; }
cmake --build "$BUILD" -j"$(nproc)" --target fuzz_text fuzz_planning fuzz_interop
# intercept_tls_get_addr=0: scripts/sanitize.sh says why.
export ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The targets run at the same time (each is one process on one core), SECONDS each.
targets=(fuzz_text fuzz_planning fuzz_interop)
pids=()
for target in "${targets[@]}"; do
  corpus=$BUILD/corpus/$target
  mkdir -p "$corpus"
  echo "fuzz: $target for ${SECONDS_EACH}s"
  (cd "$BUILD" && exec "$BUILD/bin/$target" -max_total_time="$SECONDS_EACH" -print_final_stats=1 \
    "$corpus" "$ROOT/tests/fuzz/corpus/$target" > "$BUILD/$target.log" 2>&1) &
  pids+=($!)
done
failed=0
for i in "${!targets[@]}"; do
  target=${targets[$i]}
  if wait "${pids[$i]}"; then
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$BUILD/$target.log" | sed "s/^/fuzz: $target /"
  else
    tail -40 "$BUILD/$target.log" >&2
    echo "fuzz: $target failed (input saved in $BUILD)" >&2
    failed=1
  fi
done
[ $failed = 0 ]
echo "fuzz: no crashes"
