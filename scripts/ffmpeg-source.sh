#!/usr/bin/env bash
# Sourced by the FFmpeg build scripts: makes $SRC a FFmpeg 5.1 tree with clvf's filters — fetched
# with apt-get source into $DEPS/ffmpeg unless FFMPEG_SRC names a tree of your own — with clvf's
# registration patches applied and the filter glue from filters/ linked in.
# Needs ROOT, DEPS and SRC set.
if [ ! -f "$SRC/configure" ]; then
  [ -z "${FFMPEG_SRC:-}" ] || { echo "build-ffmpeg: FFMPEG_SRC=$SRC has no configure script" >&2; exit 1; }
  echo "build-ffmpeg: fetching FFmpeg source with apt-get source"
  rm -rf "$DEPS/fetch" && mkdir -p "$DEPS/fetch"
  (cd "$DEPS/fetch" && apt-get source -qq ffmpeg >/dev/null 2>"$DEPS/fetch/apt.log") \
    || { cat "$DEPS/fetch/apt.log" >&2; exit 1; }
  dir=$(find "$DEPS/fetch" -maxdepth 1 -type d -name 'ffmpeg-*' | head -n1)
  rm -rf "$SRC" && mv "$dir" "$SRC" && rm -rf "$DEPS/fetch"
fi

# Applied patches are kept in $SRC/.clvf-applied; one that changed or went away is reversed
# first, so that a tree patched by an older checkout follows the current patches.
APPLIED=$SRC/.clvf-applied
mkdir -p "$APPLIED"
for old in $(ls -r "$APPLIED"/*.patch 2>/dev/null); do
  cur=$ROOT/filters/ffmpeg-5.1/$(basename "$old")
  if [ ! -f "$cur" ] || ! cmp -s "$old" "$cur"; then
    echo "build-ffmpeg: reversing the older $(basename "$old")"
    patch -d "$SRC" -p1 -R -s -f < "$old" && rm -f "$old"
  fi
done
for p in "$ROOT"/filters/ffmpeg-5.1/*.patch; do
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

