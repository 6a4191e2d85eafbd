#!/usr/bin/env bash
# The kernel checkers on NVIDIA's OpenCL (run there through the device tool, after
# scripts/gpu-bundle.sh here; CI runs the same tests on PoCL and Oclgrind): scale, colorspace and
# denoise on random frames of random sizes, host frames, buffers and images, each against the
# float64 reference, at full sizes. About 160 s on the H200.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=/dev/null
source "$ROOT/.gpu/env.sh"
export CLVF_TEST_DEVICE=gpu CLVF_CACHE_DIR=${CLVF_CACHE_DIR:-$(mktemp -d)}
exec "$ROOT/.gpu/bin/clvf_tests" --gtest_brief=1 \
  --gtest_filter='Storages/ScaleChecker.*:Storages/ColourChecker.*:Storages/DenoiseChecker.*'
