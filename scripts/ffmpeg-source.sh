#!/usr/bin/env bash
# Sourced by the FFmpeg build scripts: makes $SRC a FFmpeg tree of series $SERIES (5.1 or 7.1) with
# clvf's filters — fetched with apt-get source into $DEPS unless FFMPEG_SRC names a tree of your
# own — with clvf's registration patches (filters/ffmpeg-$SERIES/) applied and the filter glue
# from filters/ linked in. 5.1 is Debian 12's own source; 7.1 is Debian 13's, fetched through a
# private apt configuration (the system's apt sources are left as they are).
# Needs ROOT, DEPS, SRC and SERIES set.
[ -d "$ROOT/filters/ffmpeg-$SERIES" ] \
  || { echo "build-ffmpeg: FFMPEG_SERIES=$SERIES is not one clvf builds with; allowed: 5.1, 7.1" >&2; exit 1; }
if [ ! -f "$SRC/configure" ]; then
  [ -z "${FFMPEG_SRC:-}" ] || { echo "build-ffmpeg: FFMPEG_SRC=$SRC has no configure script" >&2; exit 1; }
  echo "build-ffmpeg: fetching FFmpeg $SERIES source with apt-get source"
  rm -rf "$DEPS/fetch" && mkdir -p "$DEPS/fetch"
  apt_options=()
  if [ "$SERIES" = 7.1 ]; then
    # Debian 13's deb-src, from the same archive the system's apt sources name.
    apt_dir=$DEPS/apt-trixie
    mkdir -p "$apt_dir/sources.list.d" "$apt_dir/lists/partial"
    uri=$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2; exit}')
    [ -n "$uri" ] || uri=$(grep -hE '^deb ' /etc/apt/sources.list 2>/dev/null | awk '{print $2; exit}')
    printf 'Types: deb-src\nURIs: %s\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      "$uri" > "$apt_dir/sources.list.d/trixie.sources"
    apt_options=(-o "Dir::Etc::SourceParts=$apt_dir/sources.list.d" -o Dir::Etc::SourceList=/dev/null
                 -o "Dir::State::Lists=$apt_dir/lists")
    apt-get "${apt_options[@]}" update -qq >/dev/null 2>"$DEPS/fetch/apt.log" || { cat "$DEPS/fetch/apt.log" >&2; exit 1; }
  fi
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

