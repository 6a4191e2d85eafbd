#!/usr/bin/env bash
# Runs a GoogleTest command line as given and fails when its filter selected no test (GoogleTest
# itself passes then), so that a renamed test cannot silently drop out of a script's run.
set -uo pipefail
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$@" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
[ "$rc" = 0 ] || exit "$rc"
if grep -qE '(Running|\]) 0 tests from' "$out"; then
  echo "gtest.sh: no test was selected: $*" >&2
  exit 1
fi
