#!/usr/bin/env bash
# Sourced by the FFmpeg build scripts: makes $SRC a FFmpeg tree of series $SERIES (5.1 or 7.1) with
# clvf's filters — fetched with apt-get source into $DEPS unless FFMPEG_SRC names a tree of your
# own — with clvf's registration patches (filters/ffmpeg-$SERIES/) applied and the filter glue
# from filters/ linked in. 5.1 is Debian 12's own source; 7.1 is Debian 13's, fetched through a
# private apt configuration (the system's apt sources are left as they are).
# Needs ROOT, DEPS, SRC and SERIES set.
[ -d "$ROOT/filters/ffmpeg-$SERIES" ] \
  || { echo "build-ffmpeg: FFMPEG_SERIES=$SERIES is not one clvf builds with; allowed: 5.1, 7.1" >&2; exit 1; }
# Sets apt_options to read Debian 13's packages and sources, from the same archive the system's
# apt sources name, through a private configuration (the lists fetched once; the system's apt
# sources are left as they are).
trixie_apt_options() {
  local apt_dir=$DEPS/apt-trixie uri
  apt_options=(-o "Dir::Etc::SourceParts=$apt_dir/sources.list.d" -o Dir::Etc::SourceList=/dev/null
               -o "Dir::State::Lists=$apt_dir/lists")
  [ -f "$apt_dir/.updated-deb" ] && return 0
  mkdir -p "$apt_dir/sources.list.d" "$apt_dir/lists/partial"
  uri=$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2; exit}')
  [ -n "$uri" ] || uri=$(grep -hE '^deb ' /etc/apt/sources.list 2>/dev/null | awk '{print $2; exit}')
  printf 'Types: deb deb-src\nURIs: %s\nSuites: trixie\nComponents: main\nArchitectures: amd64\nSigned-By: %s\n' \
    "$uri" /usr/share/keyrings/debian-archive-keyring.gpg > "$apt_dir/sources.list.d/trixie.sources"
  apt-get "${apt_options[@]}" update -qq >/dev/null 2>"$DEPS/apt-trixie.log" || { cat "$DEPS/apt-trixie.log" >&2; exit 1; }
  touch "$apt_dir/.updated-deb"
}

# FFmpeg 7.1 needs ffnvcodec >= 11.1.5.3 for CUDA, NVDEC and NVENC; Debian 12 has 11.1.5.2. Debian
# 13's libffmpeg-nvenc-dev (headers and a .pc file, architecture-independent) is downloaded and
# unpacked under $DEPS; sets FFNVCODEC_PC to its pkg-config folder.
ffnvcodec_13() {
  local dir=$DEPS/ffnvcodec-13
  FFNVCODEC_PC=$dir/usr/share/pkgconfig
  if [ -f "$FFNVCODEC_PC/ffnvcodec.pc" ]; then
    # (pointed at this folder again: a .deps copied from another checkout names that one)
    sed -i "s|^prefix=.*|prefix=$dir/usr|" "$FFNVCODEC_PC/ffnvcodec.pc"
    return 0
  fi
  echo "build-ffmpeg: fetching Debian 13's libffmpeg-nvenc-dev"
  trixie_apt_options
  rm -rf "$DEPS/fetch-nvh" && mkdir -p "$DEPS/fetch-nvh"
  (cd "$DEPS/fetch-nvh" && apt-get "${apt_options[@]}" download -qq libffmpeg-nvenc-dev >/dev/null 2>"$DEPS/nvh.log") \
    || { cat "$DEPS/nvh.log" >&2; exit 1; }
  rm -rf "$dir" && dpkg -x "$DEPS"/fetch-nvh/libffmpeg-nvenc-dev_*.deb "$dir" && rm -rf "$DEPS/fetch-nvh"
  sed -i "s|^prefix=.*|prefix=$dir/usr|" "$FFNVCODEC_PC/ffnvcodec.pc"
}

if [ ! -f "$SRC/configure" ]; then
  [ -z "${FFMPEG_SRC:-}" ] || { echo "build-ffmpeg: FFMPEG_SRC=$SRC has no configure script" >&2; exit 1; }
  echo "build-ffmpeg: fetching FFmpeg $SERIES source with apt-get source"
  rm -rf "$DEPS/fetch" && mkdir -p "$DEPS/fetch"
  apt_options=()
  [ "$SERIES" = 7.1 ] && trixie_apt_options
  (cd "$DEPS/fetch" && apt-get "${apt_options[@]}" source -qq ffmpeg >/dev/null 2>"$DEPS/fetch/apt.log") \
    || { cat "$DEPS/fetch/apt.log" >&2; exit 1; }
  dir=$(find "$DEPS/fetch" -maxdepth 1 -type d -name 'ffmpeg-*' | head -n1)
  case "$(cat "$dir/RELEASE")" in
    "$SERIES"|"$SERIES".*) ;;
    *) echo "build-ffmpeg: apt-get source gave FFmpeg $(cat "$dir/RELEASE"), not $SERIES" >&2; exit 1 ;;
  esac
  rm -rf "$SRC" && mv "$dir" "$SRC" && rm -rf "$DEPS/fetch"
fi

# Applied patches are kept in $SRC/.clvf-applied; one that changed or went away is reversed
# first, so that a tree patched by an older checkout follows the current patches.
APPLIED=$SRC/.clvf-applied
mkdir -p "$APPLIED"
for old in $(ls -r "$APPLIED"/*.patch 2>/dev/null); do
  cur=$ROOT/filters/ffmpeg-$SERIES/$(basename "$old")
  if [ ! -f "$cur" ] || ! cmp -s "$old" "$cur"; then
    echo "build-ffmpeg: reversing the older $(basename "$old")"
    patch -d "$SRC" -p1 -R -s -f < "$old" && rm -f "$old"
  fi
done
for p in "$ROOT"/filters/ffmpeg-"$SERIES"/*.patch; do
  if patch -d "$SRC" -p1 -R --dry-run -s -f < "$p" >/dev/null 2>&1; then
    cp -f "$p" "$APPLIED/"
    continue  # already applied
  fi
  echo "build-ffmpeg: applying $(basename "$p")"
  patch -d "$SRC" -p1 -s -f < "$p"
  cp -f "$p" "$APPLIED/"
done
for f in "$ROOT"/filters/*.[ch]; do
  ln -sf "$f" "$SRC/libavfilter/$(basename "$f")"
done

