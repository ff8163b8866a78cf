# ell's memory-variance product vs hll's and postgresql-hll's over the true
# distinct count, one panel per p (called by ell_mvp.sh with outdir, trials,
# peer_seeds, peer_seeds_1e6, have_peer).
set terminal pngcairo size 1300,1000 font 'DejaVu Sans,10' enhanced
set output outdir.'/ell_mvp.png'
set datafile separator '\t'
f = outdir.'/ell_mvp.tsv'
sel(sk, p) = sprintf("< awk -F'\t' 'NR > 1 && $1 == \"%s\" && $2 == %d' '%s'", sk, p, f)
# ell: only the points where it is dense (while sparse it is exact up to
# token collisions, and its MVP near 0)
dense(sk, p) = sprintf("< awk -F'\t' 'NR > 1 && $1 == \"%s\" && $2 == %d && $5 == \"f\"' '%s'", sk, p, f)
set multiplot layout 2,2 title "Memory-variance product: stored bits × mean squared relative error (lower: less error for the same bytes)\nell and hll by exact simulation of the core, n = 1 .. 10^9, ".trials." trials at p = 11, 12, 13, 14 (each from fixed seeds; hll from the same streams)\npostgresql-hll at log2m = p through SQL, ".peer_seeds." seeds to 10^5, ".peer_seeds_1e6." of them to 10^6 (points: fewer trials, so wider scatter)" font ',11'
set logscale x
set xrange [1e2 : 1e9]
set yrange [0 : 12]
set format x '10^{%L}'
set grid xtics ytics mxtics
set xlabel 'true distinct count n (log scale)'
set ylabel 'MVP'
set key top left horizontal maxcols 2 box opaque font ',9'
do for [p = 11:14] {
  set title sprintf("p = %d (m = %d; ell dense from n > 7m/8 = %d)", p, 2 ** p, 7 * 2 ** p / 8)
  if (have_peer) {
    plot dense('ell ML', p) using 3:9 with linespoints lw 2 pt 7 ps 0.5 lc rgb '#1f77b4' title 'ell, maximum likelihood', \
         dense('ell martingale', p) using 3:9 with linespoints lw 2 pt 9 ps 0.5 lc rgb '#2ca02c' title 'ell, martingale (never merged)', \
         sel('hll', p) using 3:9 with linespoints lw 2 pt 5 ps 0.5 lc rgb '#ff7f0e' title 'hll (ours)', \
         sel('postgresql-hll', p) using 3:9 with linespoints lw 1.5 pt 13 ps 0.9 lc rgb '#d62728' title 'postgresql-hll', \
         4 with lines dt 2 lw 1.5 lc rgb 'black' title 'MVP 4 (target)', \
         3.67 with lines dt 3 lw 1 lc rgb '#1f77b4' title 'ell ML asymptote 3.67'
  } else {
    plot dense('ell ML', p) using 3:9 with linespoints lw 2 pt 7 ps 0.5 lc rgb '#1f77b4' title 'ell, maximum likelihood', \
         dense('ell martingale', p) using 3:9 with linespoints lw 2 pt 9 ps 0.5 lc rgb '#2ca02c' title 'ell, martingale (never merged)', \
         sel('hll', p) using 3:9 with linespoints lw 2 pt 5 ps 0.5 lc rgb '#ff7f0e' title 'hll (ours)', \
         4 with lines dt 2 lw 1.5 lc rgb 'black' title 'MVP 4 (target)', \
         3.67 with lines dt 3 lw 1 lc rgb '#1f77b4' title 'ell ML asymptote 3.67'
  }
}
unset multiplot
