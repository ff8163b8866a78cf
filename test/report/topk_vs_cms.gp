# topk vs cms's candidate list: recall of the true top 10 / top 100 and bytes
# per sketch on Zipf streams (called by topk_vs_cms.sh with outdir).
set terminal pngcairo size 1300,1320 font 'DejaVu Sans,10' enhanced
set output outdir.'/topk_vs_cms.png'
set datafile separator '\t'
f = outdir.'/topk_vs_cms.tsv'
# the rows of one sketch, in file order: s = 0.8, 1.1, 1.5, each one pass
# then 16 parts (six groups)
sel(sk) = sprintf("< awk -F'\t' 'NR > 1 && $2 == \"%s\"' '%s'", sk, f)
label(s, parts) = sprintf("s = %s\n%s", s, parts == 1 ? "one pass" : "16 parts merged")
name(i) = i == 1 ? 'topk k=64' : i == 2 ? 'topk k=1024' : i == 3 ? 'cms k=100' : 'cms k=1024'
color(i) = i == 1 ? 0x9ecae1 : i == 2 ? 0x1f77b4 : i == 3 ? 0xfdae6b : 0xd62728
bw = 0.2
off(i) = (i - 2.5) * bw
set style fill solid 0.85 border -1
set boxwidth bw
set grid ytics
set xrange [-0.6 : 5.6]
set key outside right top vertical font ',10' samplen 2
set multiplot layout 3,1 title "Recall of the true top n: topk (Misra-Gries, k = 64, 1024) vs cms\\_agg's candidate list\n(ε = 0.001, δ = 0.01: 2719 × 5 counters; 100 and 1024 candidates), 10^6 events over 10^6 keys,\nZipf: key r with weight 1/r^s, fixed seeds; one pass and the union of 16 parts (each event to a random part)\nrecall is tie-aware: a reported key whose true count equals the n-th largest counts" font ',12'
do for [n in "10 100"] {
  col = n eq "10" ? 8 : 9
  set title sprintf("recall of the true top %s (the first %s reported keys)", n, n)
  set yrange [0 : 1.12]
  set ylabel 'recall'
  plot sel(name(1)) using 0:(NaN):xtic(label(strcol(1), column(3))) with boxes notitle, \
       for [i = 1:4] sel(name(i)) using ($0 + off(i)):(column(col)) with boxes lc rgb color(i) title name(i), \
       for [i = 1:4] sel(name(i)) using ($0 + off(i)):(column(col) + 0.04):(sprintf("%.2f", column(col))) \
         with labels font ',7' notitle
}
set title 'bytes of the stored sketch (log scale); above each bar: the items it reports'
set bmargin 4
set logscale y
set yrange [50 : 1e6]
set format y '10^{%L}'
set ylabel 'bytes'
plot sel(name(1)) using 0:(NaN):xtic(label(strcol(1), column(3))) with boxes notitle, \
     for [i = 1:4] sel(name(i)) using ($0 + off(i)):6 with boxes lc rgb color(i) title name(i), \
     for [i = 1:4] sel(name(i)) using ($0 + off(i)):($6 * 1.6):(sprintf("%d", $7)) \
       with labels font ',7' notitle
unset multiplot
