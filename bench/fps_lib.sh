# Sourced by the *_fps.sh benchmarks: the built ffmpeg, a source that costs nothing per frame (one
# noisy frame, 1080p unless SRC_SIZE says, made once inside the filter graph and looped: references, not copies) and
#   fps_of CHAIN [FRAMES] [GLOBAL OPTIONS]   prints "FPS STARTUP" (fps_rows with one row):
# FPS is steady-state frames per second (a run of FRAMES more frames than a 2-frame run, over the
# extra time); STARTUP is what the 2-frame run took beyond two frames at that rate (process start,
# device open, kernel cache). A separate warm-up run fills the kernel cache first; FPS_RUNS
# (default 3) such pairs are run and the fastest of each length count. Timing whole runs
# instead would count the process start (about 0.15 s here) and the demuxer's copy of every source
# frame against every filter alike, and hide their speed.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FF=${CLVF_BUILD_DIR:-$ROOT/build}/bin/ffmpeg
[ -x "$FF" ] || { echo "bench: $FF missing; run scripts/build.sh" >&2; exit 1; }
SRC_FMT=${SRC_FMT:-nv12}
SRC_NOISE=${SRC_NOISE:-10}
SRC_SIZE=${SRC_SIZE:-1920x1080}
src_graph() {
  echo "testsrc2=size=$SRC_SIZE:rate=30,noise=alls=$SRC_NOISE:allf=t+u,format=$SRC_FMT,trim=end_frame=1,loop=loop=-1:size=1,settb=1/30,setpts=N"
}
run_seconds() {  # run_seconds CHAIN FRAMES [GLOBAL OPTIONS]
  local t0 t1
  t0=$(date +%s.%N)
  # A run that fails prints "failed": its time would be a rate (as a failing HW=1 chain on PoCL
  # once gave). The callers' command substitutions do not stop on errors.
  "$FF" -hide_banner -nostdin -loglevel error ${3:-} -filter_complex "$(src_graph),$1" -frames:v "$2" -f null - \
    || { echo failed; return; }
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }'
}
# "FPS STARTUP" from pairs "SHORT LONG ..." of runs of 2 and N + 2 frames: the fastest short run and
# the fastest long run, since other work on a shared machine only ever slows a run down. (The
# smallest difference within a pair would favour pairs whose short run was the slowed one, and
# overstate the rate.)
rate_of_runs() {
  [[ " $1 " != *" failed "* ]] || { echo "failed -"; return; }
  echo "$1" | awk -v n="$2" '{ for (i = 1; i < NF; i += 2) {
      if (a == "" || $i < a) a = $i
      if (b == "" || $(i + 1) < b) b = $(i + 1) }
    best = b - a
    if (best <= 0) print "inf", a; else printf "%.2f %.2f\n", n / best, a - 2 * best / n }'
}
fps_of() { fps_rows "${2:-100}" "|$SRC_SIZE|$SRC_FMT|$1|${3:-}"; }
# fps_rows FRAMES ROW...   each ROW "ENVIRONMENT|SRC_SIZE|SRC_FMT|CHAIN[|GLOBAL OPTIONS[|FRAMES]]"
# (ENVIRONMENT: one VAR=value, or empty; FRAMES: the row's own count, for a row much faster than
# the others) prints "FPS STARTUP" a row, in order, as fps_of does; but the rows take
# turns, a pair of runs each a round, so that a busy spell on a shared machine falls on all of
# them and their ratios hold where figures from rows run one after another would not.
row_seconds() {  # row_seconds ROW FRAMES
  local environment size fmt chain pre
  IFS='|' read -r environment size fmt chain pre _ <<< "$1"
  ( [ -z "$environment" ] || export "${environment?}"; SRC_SIZE=$size SRC_FMT=$fmt run_seconds "$chain" "$2" "$pre" )
}
row_frames() { local frames; IFS='|' read -r _ _ _ _ _ frames <<< "$1"; echo "${frames:-$2}"; }
fps_rows() {
  local n=$1 i
  shift
  local -a runs=()
  for i in $(seq 0 $(($# - 1))); do runs[i]=""; done
  for row in "$@"; do row_seconds "$row" 2 > /dev/null; done
  for _ in $(seq "${FPS_RUNS:-3}"); do
    i=0
    for row in "$@"; do
      runs[i]+="$(row_seconds "$row" 2) $(row_seconds "$row" $(($(row_frames "$row" "$n") + 2))) "
      i=$((i + 1))
    done
  done
  i=0
  for row in "$@"; do
    rate_of_runs "${runs[i]}" "$(row_frames "$row" "$n")"
    i=$((i + 1))
  done
}
# fps_groups FRAMES reads lines "GROUP<tab>ROW" (ROW as fps_rows takes it) and prints "FPS STARTUP"
# a line, in the input's order: the rows of each group take turns (fps_rows), one group after
# another (groups in the order they first appear).
fps_groups() {
  local n=$1 group row i k
  local -a groups=() group_of=() rows=() out=() members=() indices=() results=()
  local -A seen=()
  while IFS=$'\t' read -r group row; do
    group_of+=("$group") rows+=("$row")
    [ -n "${seen[$group]:-}" ] || { seen[$group]=1; groups+=("$group"); }
  done
  for group in "${groups[@]}"; do
    members=() indices=()
    for i in "${!rows[@]}"; do
      [ "${group_of[i]}" = "$group" ] && members+=("${rows[i]}") indices+=("$i")
    done
    mapfile -t results < <(fps_rows "$n" "${members[@]}")
    for k in "${!indices[@]}"; do out[indices[k]]=${results[k]}; done
  done
  printf '%s\n' "${out[@]}"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0 && a + 0 < 1e300 && b + 0 < 1e300) printf "%.2fx", a / b; else printf "-" }'; }
