#!/usr/bin/env bash
# Installs every Debian package the build, the main job and the tests need, and enables Debian
# source packages (deb-src copies of the existing entries) so FFmpeg's source can be fetched.
# Also fetches the test photographs (below).
# Idempotent: a second run only checks.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)

PACKAGES=(
  build-essential cmake ninja-build pkg-config ccache git dpkg-dev xz-utils
  opencl-headers ocl-icd-opencl-dev ocl-icd-libopencl1 pocl-opencl-icd oclgrind clinfo
  libfmt-dev libgtest-dev libzimg-dev libxxhash-dev
  nasm libx264-dev libdav1d-dev gnuplot-nox
  clang libclang-rt-dev python3 parallel valgrind
  g++-mingw-w64-x86-64-posix wine wine64 xvfb xauth
  # FFmpeg 7.1's Debian configuration uses these too (5.1's build dependencies, below, do not)
  libdvdnav-dev libdvdread-dev libvpl-dev
)

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

enable_deb_src() {
  local changed=0 f out
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -e "$f" ] || continue
    case "$f" in *clvf-deb-src.sources) continue ;; esac
    grep -q '^Types:.*\bdeb\b' "$f" || continue
    out=/etc/apt/sources.list.d/clvf-deb-src.sources
    if [ ! -e "$out" ]; then
      sed -E 's/^Types:.*/Types: deb-src/' "$f" | $SUDO tee "$out" >/dev/null
      changed=1
    fi
  done
  if [ -f /etc/apt/sources.list ] && grep -qE '^deb ' /etc/apt/sources.list \
     && [ ! -e /etc/apt/sources.list.d/clvf-deb-src.list ]; then
    sed -nE 's/^deb (.*)/deb-src \1/p' /etc/apt/sources.list | $SUDO tee /etc/apt/sources.list.d/clvf-deb-src.list >/dev/null
    changed=1
  fi
  echo $changed
}

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
src_changed=$(enable_deb_src)
if [ "${#missing[@]}" -gt 0 ] || [ "$src_changed" = 1 ] || [ ! -d /var/lib/apt/lists ] \
   || ! ls /var/lib/apt/lists/*Sources* >/dev/null 2>&1; then
  echo "setup: apt-get update"
  $SUDO apt-get update -qq
fi
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Every library Debian builds its ffmpeg package with (its Build-Depends, without the documentation
# tools): build/bin/ffmpeg is configured as Debian's (filters/ffmpeg-*/debian.flags).
plan=$(apt-get -s build-dep --arch-only ffmpeg 2>&1) \
  || { echo "setup: apt-get build-dep ffmpeg cannot be planned: $plan" >&2; exit 1; }
if grep -q '^Inst ' <<< "$plan"; then
  echo "setup: installing FFmpeg's build dependencies (apt-get build-dep ffmpeg)"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get build-dep -y -qq --arch-only ffmpeg >/dev/null
fi
echo "setup: packages ready"

# Photographs for the denoise tests and presets: scikit-image's sample pictures, taken from
# Debian's python3-skimage package (downloaded, unpacked here, not installed).
IMAGES=$ROOT/.deps/images
if [ ! -f "$IMAGES/astronaut.png" ]; then
  echo "setup: fetching test photographs (python3-skimage)"
  tmp=$(mktemp -d) && chmod 777 "$tmp"
  (cd "$tmp" && apt-get download -qq python3-skimage >/dev/null 2>&1 && dpkg -x python3-skimage_*.deb x) \
    || { echo "setup: apt-get download python3-skimage failed" >&2; exit 1; }
  mkdir -p "$IMAGES"
  for f in astronaut coffee chelsea; do
    cp "$tmp/x/usr/lib/python3/dist-packages/skimage/data/$f.png" "$IMAGES/"
  done
  rm -rf "$tmp"
fi
