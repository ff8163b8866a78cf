# ddsketch vs tdigest: |relative error| over q per distribution, and bytes
# per sketch (called by ddsketch_vs_tdigest.sh with outdir).
set terminal pngcairo size 1200,1500 font 'DejaVu Sans,10' enhanced
set output outdir.'/ddsketch_vs_tdigest.png'
set datafile separator '\t'
f = outdir.'/ddsketch_vs_tdigest.tsv'
fs = outdir.'/ddsketch_vs_tdigest_sizes.tsv'
sel(d) = sprintf("< awk -F'\t' '$1 == \"%s\"' '%s'", d, f)
alpha = 100 * 0.0054151594159025694
floor = 1e-6
cap = 1e4
err(x) = (abs(x) * 100 > floor ? (abs(x) * 100 < cap ? abs(x) * 100 : cap) : floor)
set multiplot layout 4,2 title "|relative error| of the q-quantile vs percentile\\_disc, 10^6 values each, fixed seeds\nddsketch\\_quantile at the default accuracy (α = 0.54%) and tdigest\\_percentile(v, 100, q)\nexact answers drawn at 10^{-6} %, errors beyond 10^4 % at 10^4 %" font ',12'
set logscale y
set yrange [floor / 2 : cap * 5]
set format y '10^{%L}'
set ylabel '|relative error|, %'
set xlabel 'q'
set grid ytics
set key below horizontal maxrows 2 font ',8' samplen 2
set xrange [-0.5 : 8.5]
dists = 'lognormal pareto1.2 bimodal uniform span1e-3..1e6 span1e-9..1e9 duplicates'
do for [i = 1:7] {
  d = word(dists, i)
  set title d
  plot sel(d) using 0:(err($6)):xtic(2) with linespoints lw 2 pt 7 ps 0.8 lc rgb '#1f77b4' title 'ddsketch', \
       sel(d) using 0:(strcol(7) eq 'false' || strcol(7) eq 'f' ? err($6) : NaN) with points pt 6 ps 2.2 lw 2 lc rgb '#ff7f0e' title 'ddsketch: rank not guaranteed (collapsed)', \
       sel(d) using 0:(err($9)) with linespoints lw 2 pt 5 ps 0.8 dt 2 lc rgb '#d62728' title 'tdigest (100)', \
       alpha with lines dt 3 lw 1.5 lc rgb 'black' title 'α = 0.54%'
}
# bytes per sketch
unset logscale y
set logscale y
set yrange [100 : 1e5]
set format y '%g'
set title 'bytes per sketch (pg\_column\_size, stored)'
set key inside top left vertical box opaque font ',9'
set ylabel 'bytes'
unset xlabel
set xrange [*:*]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -30 font ',8'
plot fs skip 1 using 4:xtic(1) title 'ddsketch' lc rgb '#1f77b4', \
     fs skip 1 using 8 title 'tdigest (100)' lc rgb '#d62728'
unset multiplot
