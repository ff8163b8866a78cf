# kll vs ddsketch vs tdigest: per stream, the worst rank error and the worst
# |relative error| of the q-quantile over one pass and the unions of 2, 16
# and 256 parts, and bytes per sketch (called by kll_vs_tdigest.sh with
# outdir).
set terminal pngcairo size 1300,2900 font 'DejaVu Sans,10' enhanced
set output outdir.'/kll_vs_tdigest.png'
set datafile separator '\t'
f = outdir.'/kll_vs_tdigest.tsv'
fs = outdir.'/kll_vs_tdigest_sizes.tsv'
# One row per q of stream d and sketch s: q, the worst rank error, the worst
# |relative error| (-1 where undefined: an exact 0 missed) and the kll bound,
# over the partitionings (the TSV is ordered by stream, sketch, parts, q).
sel(d, s) = sprintf("< awk -F'\t' '$1 == \"%s\" && $5 == \"%s\" { k = $3; if (!(k in r)) { o[++n] = k; r[k] = 0; e[k] = 0; b[k] = $10 } if ($8 + 0 > r[k]) r[k] = $8 + 0; a = ($9 == \"\") ? -1 : ($9 < 0 ? -$9 : $9); if (a > e[k] || a < 0) e[k] = a } END { for (i = 1; i <= n; i++) print o[i] \"\t\" r[o[i]] \"\t\" e[o[i]] \"\t\" b[o[i]] }' '%s'", d, s, f)
alpha = 100 * 0.0054151594159025694
floor = 1e-6
cap = 1e4
err(x) = (x < 0 ? cap : (x * 100 > floor ? (x * 100 < cap ? x * 100 : cap) : floor))
# Ranks: the smallest error short of 0 is 1/n = 10^-4 %; exact ones at 10^-5 %.
rfloor = 1e-5
rerr(x) = (x * 100 > rfloor ? x * 100 : rfloor)
set multiplot layout 8,2 title "kll\\_agg(v, k) beside ddsketch\\_agg(v) (α = 0.54%) and tdigest(v, 100): 10^6 values per stream, fixed seeds\nthe worst over one pass and the unions of 2, 16 and 256 contiguous slices, at each q; exact answers drawn at 10^{-5} % (ranks) and 10^{-6} % (values), errors beyond 10^4 % at 10^4 %\nleft: rank error (distance from q to the answer's true ranks), dotted: the bound kll reports; right: |relative error| of the value vs percentile\\_disc" font ',11'
set logscale y
set format y '10^{%L}'
set xlabel 'q'
set grid ytics
set key below horizontal maxrows 2 font ',8' samplen 2
set xrange [-0.5 : 10.5]
dists = 'uniform lognormal pareto1.1 signed timestamps duplicates sorted'
c100 = '#2ca02c'; c200 = '#1f77b4'; c800 = '#9467bd'; cdd = '#ff7f0e'; ctd = '#d62728'
do for [i = 1:7] {
  d = word(dists, i)
  set title d.': rank error'
  set ylabel 'rank error, %'
  set yrange [rfloor / 2 : 50]
  plot sel(d, 'kll100') using 0:(rerr($2)):xtic(1) with linespoints lw 2 pt 7 ps 0.7 lc rgb c100 title 'kll k 100', \
       sel(d, 'kll200') using 0:(rerr($2)) with linespoints lw 2 pt 7 ps 0.7 lc rgb c200 title 'kll k 200', \
       sel(d, 'kll800') using 0:(rerr($2)) with linespoints lw 2 pt 7 ps 0.7 lc rgb c800 title 'kll k 800', \
       sel(d, 'ddsketch') using 0:(rerr($2)) with linespoints lw 2 pt 5 ps 0.7 lc rgb cdd title 'ddsketch', \
       sel(d, 'tdigest') using 0:(rerr($2)) with linespoints lw 2 pt 9 ps 0.8 dt 2 lc rgb ctd title 'tdigest (100)', \
       sel(d, 'kll100') using 0:($4 * 100) with lines dt 3 lw 1.5 lc rgb c100 notitle, \
       sel(d, 'kll200') using 0:($4 * 100) with lines dt 3 lw 1.5 lc rgb c200 notitle, \
       sel(d, 'kll800') using 0:($4 * 100) with lines dt 3 lw 1.5 lc rgb c800 notitle
  set title d.': |relative error| of the value'
  set ylabel '|relative error|, %'
  set yrange [floor / 2 : cap * 5]
  plot sel(d, 'kll100') using 0:(err($3)):xtic(1) with linespoints lw 2 pt 7 ps 0.7 lc rgb c100 title 'kll k 100', \
       sel(d, 'kll200') using 0:(err($3)) with linespoints lw 2 pt 7 ps 0.7 lc rgb c200 title 'kll k 200', \
       sel(d, 'kll800') using 0:(err($3)) with linespoints lw 2 pt 7 ps 0.7 lc rgb c800 title 'kll k 800', \
       sel(d, 'ddsketch') using 0:(err($3)) with linespoints lw 2 pt 5 ps 0.7 lc rgb cdd title 'ddsketch', \
       sel(d, 'tdigest') using 0:(err($3)) with linespoints lw 2 pt 9 ps 0.8 dt 2 lc rgb ctd title 'tdigest (100)', \
       alpha with lines dt 3 lw 1.5 lc rgb 'black' title 'α = 0.54%'
}
# bytes per sketch
unset logscale y
set logscale y
set yrange [100 : 1e5]
set format y '%g'
set title 'bytes per sketch (pg\_column\_size, stored), one pass'
set key inside top left vertical box opaque font ',8'
set ylabel 'bytes'
unset xlabel
set xrange [*:*]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -30 font ',8'
plot fs skip 1 using 3:xtic(1) title 'kll k 100' lc rgb c100, \
     fs skip 1 using 4 title 'kll k 200' lc rgb c200, \
     fs skip 1 using 5 title 'kll k 800' lc rgb c800, \
     fs skip 1 using 6 title 'ddsketch' lc rgb cdd, \
     fs skip 1 using 7 title 'tdigest (100)' lc rgb ctd
unset multiplot
