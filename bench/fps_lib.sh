# Sourced by the *_fps.sh benchmarks: the built ffmpeg, a source that costs almost nothing (one
# noisy 1080p frame decoded once, then looped) and fps_of CHAIN [FRAMES] [PRE-INPUT OPTIONS].
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FF=${CLVF_BUILD_DIR:-$ROOT/build}/bin/ffmpeg
[ -x "$FF" ] || { echo "bench: $FF missing; run scripts/build.sh" >&2; exit 1; }
SRC_FMT=${SRC_FMT:-nv12}
SRC_NOISE=${SRC_NOISE:-10}
src() {
  echo "-f lavfi -i testsrc2=size=1920x1080:rate=30,noise=alls=$SRC_NOISE:allf=t+u,format=$SRC_FMT,trim=end_frame=1,loop=loop=-1:size=1,settb=1/30,setpts=N"
}
fps_of() {
  local chain=$1 n=${2:-100} pre=${3:-} t0 t1
  "$FF" -hide_banner -nostdin -loglevel error $pre $(src) -vf "$chain" -frames:v 2 -f null - # warm (kernel cache)
  t0=$(date +%s.%N)
  "$FF" -hide_banner -nostdin -loglevel error $pre $(src) -vf "$chain" -frames:v "$n" -f null -
  t1=$(date +%s.%N)
  awk -v n="$n" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", n / (b - a) }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }
