// The live progress line.
#include "cli/progress_line.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>

#include <fmt/format.h>

namespace mctsat::cli {

ProgressLine::ProgressLine(bool enabled, std::string label, std::string unit)
    : active_(enabled && isatty(STDERR_FILENO) == 1),
      label_(std::move(label)),
      unit_(std::move(unit)) {}

ProgressLine::~ProgressLine() {
  if (shown_) std::fputs("\r\033[K", stderr);
}

void ProgressLine::update(const search::Progress& p) {
  if (!active_) return;
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && p.step < p.limit && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  shown_ = true;
  const std::string cost =
      std::isnan(p.best_cost) ? std::string() : fmt::format("  best {:.4f} ms", p.best_cost);
  std::fputs(fmt::format("\r\033[K{}  {} {}/{}{}  {} nodes  {:.1f} s", label_, unit_, p.step,
                         p.limit, cost, p.nodes, p.seconds)
                 .c_str(),
             stderr);
  std::fflush(stderr);
}

search::ProgressCallback ProgressLine::callback() {
  if (!active_) return {};
  return [this](const search::Progress& p) { update(p); };
}

}  // namespace mctsat::cli
