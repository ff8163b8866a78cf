# cms on a Zipf stream (called by run.sh with outdir).
set terminal pngcairo size 1300,640 font 'DejaVu Sans,11' enhanced
set output outdir.'/cms_zipf.png'
set datafile separator '\t'
f = outdir.'/cms_zipf.tsv'
stats f skip 1 using 7 nooutput
epsn = STATS_min
stats outdir.'/cms_zipf_summary.tsv' skip 1 using 1 nooutput
events = STATS_max
stats outdir.'/cms_zipf_summary.tsv' skip 1 using 2 nooutput
keys = STATS_max
set multiplot layout 1,2 title sprintf("cms\\_agg at the defaults (ε = 0.001, δ = 0.01: 2719 × 5 counters)\non a Zipf stream: %d events (key r of 50,000 with weight 1/r; %d keys occur), random order\nper true count: mean and max estimate over the keys with that count; ε·N = %d", events, keys, epsn) font ',12'
set grid xtics ytics
set logscale xy
set format x '10^{%L}'; set format y '10^{%L}'
set xrange [0.8:30000]; set yrange [0.8:30000]
set xlabel 'true frequency (log scale)'
set ylabel 'estimated frequency (log scale)'
set key top left box opaque
set title 'estimate vs truth'
plot f skip 1 using 1:4 with points pt 6 ps 0.8 lc rgb '#ff7f0e' title 'plain update: max', \
     f skip 1 using 1:3 with points pt 7 ps 0.6 lc rgb '#d62728' title 'plain update: mean', \
     f skip 1 using 1:6 with points pt 4 ps 0.8 lc rgb '#17becf' title 'conservative: max', \
     f skip 1 using 1:5 with points pt 5 ps 0.5 lc rgb '#1f77b4' title 'conservative: mean', \
     x with lines lw 1.5 lc rgb 'black' title 'estimate = truth (never below)', \
     x + epsn with lines dt 2 lw 1.5 lc rgb 'black' title 'truth + ε·N (bound, prob. ≥ 1 − δ)'
set title 'overestimate (estimate − truth)'
unset logscale y
set format y '%g'
set yrange [-5:epsn * 1.15]
set ylabel 'estimate − true frequency'
set key top right box opaque
plot f skip 1 using 1:($4-$1) with points pt 6 ps 0.8 lc rgb '#ff7f0e' title 'plain update: max', \
     f skip 1 using 1:($3-$1) with points pt 7 ps 0.6 lc rgb '#d62728' title 'plain update: mean', \
     f skip 1 using 1:($6-$1) with points pt 4 ps 0.8 lc rgb '#17becf' title 'conservative: max', \
     f skip 1 using 1:($5-$1) with points pt 5 ps 0.5 lc rgb '#1f77b4' title 'conservative: mean', \
     epsn with lines dt 2 lw 1.5 lc rgb 'black' title 'ε·N'
unset multiplot
