#!/usr/bin/env bash
# build/bin/ffmpeg and ffmpeg-7.1 are configured as Debian builds its ffmpeg package for that source:
# every --enable-X in the source's debian/rules is in filters/ffmpeg-SERIES/debian.flags (except
# the "extra" flavour's GPLv3 libraries and the other flavours' switches, listed below), every
# flag there comes from debian/rules, and `ffmpeg -buildconf` shows each of them.
set -euo pipefail
ROOT=$1 BIN=$2
# Debian's libavcodec-extra flavour (GPLv3: --enable-version3 and its libraries), the shared and
# powerpc flavours' switches: not part of Debian's ffmpeg program.
not_in_program=" shared version3 libaribb24 libopencore_amrnb libopencore_amrwb libtesseract libvo_amrwbenc libsmbclient altivec "
checked=0
for series in 5.1 7.1; do
  suffix=$([ "$series" = 5.1 ] || echo "-$series")
  rules=$ROOT/.deps/ffmpeg$suffix/debian/rules
  ff=$BIN/ffmpeg$suffix
  if [ ! -f "$rules" ] || [ ! -x "$ff" ]; then echo "FFmpeg $series is not built here"; continue; fi
  ours=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$ROOT/filters/ffmpeg-$series/debian.flags")
  for flag in $(grep -oE -- '--enable-[a-z0-9_]+' "$rules" | sort -u); do
    case "$not_in_program" in *" ${flag#--enable-} "*) continue ;; esac
    grep -qx -- "$flag" <<< "$ours" || { echo "FFmpeg $series: debian/rules has $flag, debian.flags does not" >&2; exit 1; }
  done
  buildconf=$("$ff" -hide_banner -buildconf)
  for flag in $ours; do
    case "$flag" in --toolchain=*|--arch=*) ;; *)
      grep -qE -- "(^|[[:space:]])${flag}([[:space:]]|$)" "$rules" \
        || { echo "FFmpeg $series: $flag is not in debian/rules" >&2; exit 1; } ;;
    esac
    grep -qx -- "[[:space:]]*$flag" <<< "$buildconf" || { echo "FFmpeg $series: ffmpeg -buildconf lacks $flag" >&2; exit 1; }
  done
  echo "FFmpeg $series: $(wc -l <<< "$ours") flags of Debian's, all in debian/rules and in ffmpeg -buildconf"
  checked=$((checked + 1))
done
[ "$checked" -gt 0 ] || exit 77
