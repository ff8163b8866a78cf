# bloom false-positive rates (called by run.sh with outdir).
set terminal pngcairo size 1000,650 font 'DejaVu Sans,11' enhanced
set datafile separator '\t'
set grid xtics ytics mytics

set output outdir.'/bloom_fpr_k.png'
f = outdir.'/bloom_fpr_k.tsv'
set title "bloom: false-positive rate vs number of hashes k\nn = 10,000 values in m = 100,000 bits (10 bits per value); 5 filters × 200,000 absent probes per k" font ',12'
set xlabel 'hashes k'
set ylabel 'false-positive rate (log scale)'
set logscale y
set format y '%g'
set xrange [0.5:14.5]
set xtics 1
set key top center box opaque
plot f skip 1 using 1:6:7:8 with yerrorbars pt 7 ps 1 lw 1.5 lc rgb '#d62728' title 'measured (±2σ binomial)', \
     f skip 1 using 1:9 with lines lw 2 lc rgb 'black' title 'predicted (1 − e^{−kn/m})^k', \
     f skip 1 using 1:10 with points pt 4 ps 1.4 lc rgb '#1f77b4' title 'bloom\_fpp(f) from the fill (X/m)^k, mean', \
     f skip 1 using 1:9 with lines lw 0 lc rgb 'white' notitle

set output outdir.'/bloom_fpr_fill.png'
f = outdir.'/bloom_fpr_fill.tsv'
set title "bloom: false-positive rate as the filter fills past its design n\nbloom\\_agg(v, 10000, 0.01): m = 95,851 bits, k = 7; 5 filters × 200,000 absent probes per point" font ',12'
set xlabel 'distinct values added / design n (n = 10,000)'
set xrange [0:4.2]
set xtics 0.25 rotate by -45
set yrange [1e-6:1]
set format y '10^{%L}'
set key bottom right box opaque
set arrow from 1, graph 0 to 1, graph 1 nohead dt 3 lc rgb 'gray40'
plot f skip 1 using 2:7:($8 > 0 ? $8 : 1e-7):9 with yerrorbars pt 7 ps 1 lw 1.5 lc rgb '#d62728' title 'measured (±2σ binomial)', \
     f skip 1 using 2:10 with lines lw 2 lc rgb 'black' title 'predicted (1 − e^{−kn/m})^k', \
     f skip 1 using 2:11 with points pt 4 ps 1.4 lc rgb '#1f77b4' title 'bloom\_fpp(f) from the fill, mean', \
     0.01 with lines dt 2 lw 1.5 lc rgb '#2ca02c' title 'design p = 0.01'
