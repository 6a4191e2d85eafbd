# Sourced by the benchmarks: plot_rows TITLE PNG ROWS_FILE [log] draws the rows ("label<TAB>fps"
# per line) as a horizontal bar chart (gnuplot, from scripts/setup.sh), on a log scale when asked,
# and says where it is.
plot_rows() {
  local title=$1 png=$2 rows=$3 scale=${4:-linear} xrange="set xrange [0:*]"
  local bars='using ($2*0.5):0:($2*0.5):(0.35):yticlabels(1) with boxxyerrorbars'
  if [ "$scale" = log ]; then
    xrange="set logscale x; set xrange [1:*]"
    bars='using (sqrt($2)):0:(1):($2):($0-0.35):($0+0.35):yticlabels(1) with boxxyerrorbars'
  fi
  command -v gnuplot >/dev/null || { echo "bench: gnuplot missing (scripts/setup.sh installs it); no plot"; return 0; }
  mkdir -p "$(dirname "$png")"
  gnuplot <<GP
set terminal pngcairo noenhanced size 900,$(( 120 + 40 * $(wc -l < "$rows") )) font "Sans,10"
set output "$png"
set title "$title"
set datafile separator "\t"
set style fill solid 0.8
set xlabel "frames per second"
set yrange [-0.6:*] reverse
$xrange
set grid xtics
unset key
set offsets 0, graph 0.15, 0, 0
plot "$rows" $bars lc rgb "#3b78c2", \
     "" using 2:0:(sprintf(" %s", strcol(2))) with labels left
GP
  echo "plot: $png"
}
