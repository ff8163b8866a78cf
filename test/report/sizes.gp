# bytes per sketch vs distinct values (called by run.sh with outdir, have_peer).
set terminal pngcairo size 1100,700 font 'DejaVu Sans,11' enhanced
set output outdir.'/sizes.png'
set datafile separator '\t'
f = outdir.'/sizes.tsv'
set title "bytes per sketch vs distinct values added (values 1..n)\npg\\_column\\_size as stored in a table, after TOAST compression (cms also uncompressed)\nhll p = 10, 14, 18 coincide while sparse (4 bytes per value)" font ',12'
set logscale xy
set format x '10^{%L}'
set format y '10^{%L}'
set xrange [1:1e7]
set yrange [10:3e7]
set grid xtics ytics
set xlabel 'distinct values n (log scale)'
set ylabel 'bytes (log scale)'
set key outside right top box
plot f skip 1 using 1:2 with linespoints lw 2 pt 7 ps 0.7 lc rgb '#aec7e8' title 'hll p = 10', \
     f skip 1 using 1:3 with linespoints lw 2 pt 7 ps 0.7 lc rgb '#1f77b4' title 'hll p = 14 (default)', \
     f skip 1 using 1:4 with linespoints lw 2 pt 7 ps 0.7 lc rgb '#08306b' title 'hll p = 18', \
     f skip 1 using 1:($6 > 0 ? $6 : NaN) with linespoints lw 2 dt 2 pt 5 ps 0.7 lc rgb '#d62728' title (have_peer ? 'postgresql-hll log2m = 14' : ''), \
     f skip 1 using 1:7 with linespoints lw 2 pt 9 ps 0.8 lc rgb '#2ca02c' title 'cms default (stored)', \
     f skip 1 using 1:8 with lines lw 2 dt 3 lc rgb '#2ca02c' title 'cms default (uncompressed)', \
     f skip 1 using 1:9 with lines lw 2 lc rgb '#9467bd' title 'bloom (10^6, 1%)', \
     f skip 1 using 1:10 with linespoints lw 2 dt 2 pt 13 ps 0.8 lc rgb '#9467bd' title 'bloom sized for n at 1%'
