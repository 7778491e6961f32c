// The live progress line.
#include "cli/progress_line.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>

#include <fmt/format.h>

namespace mctsat::cli {

ProgressLine::ProgressLine(bool enabled, std::string label, std::string unit,
                           std::chrono::milliseconds log_interval)
    : active_(enabled),
      terminal_(isatty(STDERR_FILENO) == 1),
      label_(std::move(label)),
      unit_(std::move(unit)),
      log_interval_(log_interval),
      last_(std::chrono::steady_clock::now()) {}

ProgressLine::~ProgressLine() {
  if (shown_ && terminal_) std::fputs("\r\033[K", stderr);
}

void ProgressLine::update(const search::Progress& p) {
  if (!active_) return;
  const auto now = std::chrono::steady_clock::now();
  // A terminal redraws one line ten times a second; a log gets a line every log interval.
  const auto interval = terminal_ ? std::chrono::milliseconds(100) : log_interval_;
  const bool last_step = terminal_ && p.step >= p.limit;
  if ((shown_ || !terminal_) && !last_step && now - last_ < interval) return;
  last_ = now;
  shown_ = true;
  const std::string cost =
      std::isnan(p.best_cost) ? std::string() : fmt::format("  best {:.4f} ms", p.best_cost);
  const std::string line = fmt::format("{}  {} {}/{}{}  {} nodes  {:.1f} s", label_, unit_, p.step,
                                       p.limit, cost, p.nodes, p.seconds);
  std::fputs((terminal_ ? "\r\033[K" + line : line + "\n").c_str(), stderr);
  std::fflush(stderr);
}

search::ProgressCallback ProgressLine::callback() {
  if (!active_) return {};
  return [this](const search::Progress& p) { update(p); };
}

}  // namespace mctsat::cli
