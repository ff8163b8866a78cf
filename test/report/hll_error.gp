# hll relative error vs true cardinality (called by run.sh with outdir, seeds, have_peer).
set terminal pngcairo size 1000,1350 font 'DejaVu Sans,11' enhanced
set output outdir.'/hll_error.png'
set datafile separator '\t'
sel(impl, p) = sprintf("< awk -F'\t' '$1 == \"%s\" && $2 == %d' '%s/hll_error.tsv'", impl, p, outdir)
set multiplot layout 3,1 title "hll: relative error of the estimate vs true distinct count, mean and ±1σ over independent seeds\nseeds: ".seeds."\n(each seed is one stream of distinct values, read at 31 checkpoints)" font ",13"
set logscale x
set xrange [10:1e7]
set format x '10^{%L}'
set grid xtics ytics mxtics
set xlabel 'true distinct count n (log scale)'
set ylabel 'relative error (estimate − n) / n, %'
set key top left box opaque
set format y '%g%%'
do for [i = 1:3] {
  p = word('10 14 18', i) + 0
  se = 100 * 1.04 / sqrt(2 ** p)
  set title sprintf("p = %d (m = %d registers): standard error 1.04/√m = ±%.2f%%", p, 2 ** p, se)
  set yrange [-4 * se : 4 * se]
  if (p == 14 && have_peer) {
    plot sel('sketch', p) using 3:(100*($5-$6)):(100*($5+$6)) with filledcurves fc rgb '#1f77b4' fs transparent solid 0.25 noborder title 'sketch: mean ± 1σ', \
         sel('sketch', p) using 3:(100*$5) with linespoints lw 2 pt 7 ps 0.6 lc rgb '#1f77b4' title 'sketch: mean (bias)', \
         sel('postgresql-hll', p) using 3:(100*($5-$6)):(100*($5+$6)) with filledcurves fc rgb '#d62728' fs transparent solid 0.15 noborder title 'postgresql-hll log2m=14: mean ± 1σ', \
         sel('postgresql-hll', p) using 3:(100*$5) with linespoints lw 2 pt 5 ps 0.6 lc rgb '#d62728' title 'postgresql-hll log2m=14: mean', \
         se with lines dt 2 lw 1.5 lc rgb 'black' title '±1.04/√m', -se with lines dt 2 lw 1.5 lc rgb 'black' notitle, \
         0 with lines lw 1 lc rgb 'gray' notitle
  } else {
    plot sel('sketch', p) using 3:(100*($5-$6)):(100*($5+$6)) with filledcurves fc rgb '#1f77b4' fs transparent solid 0.25 noborder title 'sketch: mean ± 1σ', \
         sel('sketch', p) using 3:(100*$5) with linespoints lw 2 pt 7 ps 0.6 lc rgb '#1f77b4' title 'sketch: mean (bias)', \
         se with lines dt 2 lw 1.5 lc rgb 'black' title '±1.04/√m', -se with lines dt 2 lw 1.5 lc rgb 'black' notitle, \
         0 with lines lw 1 lc rgb 'gray' notitle
  }
}
unset multiplot
