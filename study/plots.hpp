// The plots of a study report, drawn by gnuplot as PNG (pngcairo) and SVG: speedup per model and
// configuration (the paper's Figures 5 and 6), optimization time per model (log scale), speedup
// and time against each numeric swept parameter (node limit, rollout depth, threads), and a heat
// map of how often each rule was committed per model (Figures 7 and 8). Every plot has a title
// naming the study, what it shows and the cost model(s), and labelled axes; error bars span the
// runs' min to max (mean + std could claim more than the best known). The data (.dat) and scripts
// (.gp) stay beside the pictures, to be edited and redrawn with `gnuplot NAME.gp`.
#pragma once

#include <string>
#include <vector>

#include "study/report.hpp"

namespace mctsat::study {

// Writes the plots into dir (created) and returns every file written. Throws mctsat::Error when
// gnuplot is missing or fails (with its messages).
std::vector<std::string> draw_plots(const Summary& summary, const std::string& dir,
                                    const std::string& gnuplot = "gnuplot");

}  // namespace mctsat::study
