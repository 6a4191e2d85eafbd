#!/usr/bin/env bash
# Installs every Debian package the build, the main job and the tests need, and enables Debian
# source packages (deb-src copies of the existing entries) so FFmpeg's source can be fetched.
# Idempotent: a second run only checks.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config ccache git dpkg-dev xz-utils
  opencl-headers ocl-icd-opencl-dev ocl-icd-libopencl1 pocl-opencl-icd oclgrind clinfo
  libfmt-dev libgtest-dev libzimg-dev libxxhash-dev
  nasm libx264-dev libdav1d-dev
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
echo "setup: packages ready"
