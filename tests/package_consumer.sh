#!/usr/bin/env bash
# Installs the build into a scratch prefix (cmake --install), then builds and runs a small
# consumer against it twice: through find_package(clvf) and through pkg-config; and a C++ one
# through clvf/clvf.hpp.
#   package_consumer.sh BUILD_DIR
set -euo pipefail
BUILD=$1
HERE=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$BUILD" --prefix "$tmp/prefix" > "$tmp/install.log"
export LD_LIBRARY_PATH=$tmp/prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cmake -S "$HERE/package" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$tmp/prefix" > "$tmp/configure.log"
cmake --build "$tmp/cmake" > "$tmp/build.log"
"$tmp/cmake/consumer"
"$tmp/cmake/consumer_cpp"
PKG_CONFIG_PATH=$tmp/prefix/lib/pkgconfig cc -std=c11 "$HERE/package/consumer.c" \
  $(PKG_CONFIG_PATH=$tmp/prefix/lib/pkgconfig pkg-config --cflags --libs clvf) -o "$tmp/consumer-pc"
"$tmp/consumer-pc"
