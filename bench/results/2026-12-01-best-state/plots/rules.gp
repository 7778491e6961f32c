# rules: drawn by `mctsat bench report`; redraw with `gnuplot rules.gp`.
set datafile separator "\t"
set datafile missing "?"
set grid ytics
set key outside top center horizontal
set title "rule commits per run (mean)"
unset key
set xtics rotate by 90 right nomirror
set ytics nomirror
set palette defined (0 "white", 1 "#fdd49e", 2 "#ef6548", 3 "#7f0000")
set cblabel "commits"
set yrange [*:*] reverse
unset grid
set terminal pngcairo noenhanced size 600,404 font "sans,10"
set output "rules.png"
plot "rules.dat" matrix rowheaders columnheaders using 1:2:3 with image
set terminal svg noenhanced size 600,404 font "sans,10" background "white"
set output "rules.svg"
replot
