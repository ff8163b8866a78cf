# theta's intersection vs hll's inclusion-exclusion: RMS relative error over
# the overlap, and every trial (called by theta_vs_hll.sh with outdir).
set terminal pngcairo size 1200,1300 font 'DejaVu Sans,10' enhanced
set output outdir.'/theta_vs_hll.png'
set datafile separator '\t'
f = outdir.'/theta_vs_hll.tsv'
ft = outdir.'/theta_vs_hll_trials.tsv'
sel(sk) = sprintf("< awk -F'\t' 'NR > 1 && $4 == \"%s\"' '%s'", sk, f)
N = 1e6
# expected relative errors: theta sqrt((|A|/k - 1)/|A ∩ B|), |A| = (1 + J) N / 2;
# hll (hll.md's rule) 1.04/sqrt(m) · |A ∪ B| / |A ∩ B|
theta_err(k, x) = sqrt(((1 + x) * N / 2 / k - 1) / (x * N))
hll_err(x) = 1.04 / 128 / x
# theta's k at hll p = 14's 12,300 bytes: (12300 - 28) / 8
k_eq = (12300 - 28) / 8.0
set multiplot layout 2,1 title "|A ∩ B| from two sketches at about the same bytes, |A ∪ B| = 10^6, |A| = |B|, 40 trials per overlap (fixed ids)\ntheta\\_count(a \\& b) at lg\\_k = 10 (8,220 bytes) and 11 (16,412 bytes) vs hll\\_intersect\\_cardinality(a, b) at p = 14 (12,300 bytes)" font ',12'

set title 'RMS relative error of |A ∩ B| (lines: expected)'
set logscale xy
set xrange [0.008 : 0.65]
set yrange [0.005 : 2]
set xtics ('0.01' 0.01, '0.02' 0.02, '0.05' 0.05, '0.1' 0.1, '0.2' 0.2, '0.5' 0.5)
set format y '%g'
set xlabel 'overlap J = |A ∩ B| / |A ∪ B|'
set ylabel 'RMS relative error'
set grid xtics ytics mytics
set key top right box opaque font ',9'
set samples 200
plot sel('hll p=14') using 1:9 with linespoints lw 2 pt 7 ps 1.2 lc rgb '#d62728' title 'hll p = 14 (inclusion-exclusion), measured', \
     hll_err(x) with lines dt 2 lw 1.5 lc rgb '#d62728' title '1.04/√m · |A ∪ B|/|A ∩ B|', \
     sel('theta lg_k=10') using 1:9 with linespoints lw 2 pt 5 ps 1.2 lc rgb '#9ecae1' title 'theta lg\_k = 10, measured', \
     theta_err(1024, x) with lines dt 2 lw 1.5 lc rgb '#9ecae1' title 'sqrt((|A|/k − 1)/|A ∩ B|), k = 1024', \
     sel('theta lg_k=11') using 1:9 with linespoints lw 2 pt 5 ps 1.2 lc rgb '#1f77b4' title 'theta lg\_k = 11, measured', \
     theta_err(2048, x) with lines dt 2 lw 1.5 lc rgb '#1f77b4' title 'the same, k = 2048', \
     theta_err(k_eq, x) with lines dt 3 lw 2 lc rgb 'black' title 'theta at exactly hll''s bytes (k = 1534), expected'

set title 'every trial: relative error of the estimate (hll clamps its estimate at 0: −100%)'
unset logscale y
set yrange [-110 : 120]
set ytics 25
set format y '%+g%%'
set ylabel 'relative error'
set key top right box opaque font ',9'
# trials drawn side by side around their overlap
jit(x, d) = x * (1 + d)
plot ft skip 1 using (jit($1, -0.08)):(100 * ($5 - $4) / $4) with points pt 7 ps 0.9 lc rgb '#d62728' title 'hll p = 14', \
     ft skip 1 using (jit($1, 0)):(100 * ($6 - $4) / $4) with points pt 5 ps 0.8 lc rgb '#9ecae1' title 'theta lg\_k = 10', \
     ft skip 1 using (jit($1, 0.08)):(100 * ($9 - $4) / $4) with points pt 5 ps 0.8 lc rgb '#1f77b4' title 'theta lg\_k = 11', \
     0 with lines lc rgb 'black' notitle
unset multiplot
