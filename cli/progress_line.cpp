// The live progress line (see progress_line.hpp).
#include "cli/progress_line.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>

#include <fmt/format.h>

namespace mctsat::cli {

ProgressLine::ProgressLine(bool enabled, std::string label, std::string unit,
                           std::chrono::milliseconds log_interval, std::string limits)
    : active_(enabled),
      terminal_(isatty(STDERR_FILENO) == 1),
      label_(std::move(label)),
      unit_(std::move(unit)),
      limits_(std::move(limits)),
      log_interval_(std::max(log_interval, std::chrono::milliseconds(1))),
      start_(Clock::now()),
      last_draw_(start_) {
  if (active_) clock_ = std::thread([this] { tick(); });
}

ProgressLine::~ProgressLine() {
  if (!active_) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  clock_.join();
  if (shown_ && terminal_) std::fputs("\r\033[K", stderr);
}

std::string ProgressLine::text_locked() const {
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  // The limits are the search's: a phase set by name (the extraction, the guard) states its own.
  if (!phase_.empty()) return fmt::format("{}  {}  {:.1f} s", label_, phase_, elapsed);
  const std::string time =
      fmt::format("{:.1f} s{}", elapsed, limits_.empty() ? "" : " (" + limits_ + ")");
  if (!have_progress_) return fmt::format("{}  starting  {}", label_, time);
  const search::Progress& p = latest_;
  const bool taso = std::string(p.phase) == search::Progress::kTasoPhase;
  const std::string unit = taso ? "graph" : unit_;
  // The limit is a cap (--max-steps, --iterations, --budget), not an expected count.
  const std::string count = p.limit > 0 ? fmt::format("{} {} (at most {})", unit, p.step, p.limit)
                                        : fmt::format("{} {}", unit, p.step);
  // Step 0's best is the input's own e-graph extracted, which can differ from the report's
  // original cost (docs/cli.md): it says so.
  const std::string cost =
      std::isnan(p.best_cost)
          ? std::string()
          : fmt::format("  best {:.4f} ms{}", p.best_cost,
                        p.step == 0 && !taso ? " (extracted from the input's e-graph)" : "");
  const std::string region =
      p.regions > 0 ? fmt::format(" (region {} of {})", p.region, p.regions) : "";
  return fmt::format("{}  {}{}: {}{}  {} nodes  {}", label_, p.phase, region, count, cost, p.nodes,
                     time);
}

void ProgressLine::draw_locked() {
  last_draw_ = Clock::now();
  shown_ = true;
  const std::string line = text_locked();
  std::fputs((terminal_ ? "\r\033[K" + line : line + "\n").c_str(), stderr);
  std::fflush(stderr);
}

void ProgressLine::update(const search::Progress& p) {
  if (!active_) return;
  std::lock_guard lock(mutex_);
  latest_ = p;
  const bool first = !have_progress_;
  have_progress_ = true;
  phase_.clear();
  // On a terminal each step redraws (at most ten times a second); a log gets its lines from the
  // clock only, at a steady pace.
  // The first report is always drawn.
  if (terminal_ && (first || Clock::now() - last_draw_ >= std::chrono::milliseconds(100)))
    draw_locked();
}

void ProgressLine::set_phase(std::string phase) {
  if (!active_) return;
  std::lock_guard lock(mutex_);
  phase_ = std::move(phase);
  if (terminal_) draw_locked();
}

void ProgressLine::tick() {
  const auto period = terminal_ ? std::chrono::milliseconds(500) : log_interval_;
  std::unique_lock lock(mutex_);
  auto next = start_ + period;
  while (!wake_.wait_until(lock, next, [this] { return stopping_; })) {
    draw_locked();
    next += period;
    if (next < Clock::now()) next = Clock::now() + period;  // a stalled clock does not burst
  }
}

search::ProgressCallback ProgressLine::callback() {
  if (!active_) return {};
  return [this](const search::Progress& p) { update(p); };
}

}  // namespace mctsat::cli
