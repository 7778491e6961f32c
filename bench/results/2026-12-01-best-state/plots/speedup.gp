# speedup: drawn by `mctsat bench report`; redraw with `gnuplot speedup.gp`.
set datafile separator "\t"
set datafile missing "?"
set grid ytics
set key outside top center horizontal
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by -30 nomirror
set ylabel "speedup (%)"
set yrange [0:*]
set xzeroaxis lt -1

set terminal pngcairo noenhanced size 700,500 font "sans,10"
set output "speedup.png"
plot "speedup.dat" using 2:3:xtic(1) title "mcts", \
     '' using 4:5 title "mcts-best", \
     '' using 6:7 title "mcts-20k", \
     '' using 8:9 title "mcts-20k-best"
set terminal svg noenhanced size 700,500 font "sans,10" background "white"
set output "speedup.svg"
replot
