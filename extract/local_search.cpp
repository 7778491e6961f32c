// Local improvement by single-class and compound moves, on a ChoiceEngine (see local_search.hpp).
#include "extract/local_search.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

#include "extract/choice_engine.hpp"

namespace mctsat::extract {
namespace {

class LocalMoves {
 public:
  explicit LocalMoves(ChoiceEngine& engine) : e_(engine), p_(engine.problem()) {}

  ImproveStats run(std::size_t max_passes) {
    ImproveStats stats;
    stats.before = e_.total();
    std::vector<Index> order;
    while (stats.passes < max_passes) {
      ++stats.passes;
      e_.refresh_positions();
      e_.refresh_defaults();
      order = e_.order();
      bool improved = false;
      for (Index eclass : order) {
        if (!e_.needed(eclass)) continue;  // left the extraction earlier in this pass
        if (p_.candidates(eclass).size() < 2) continue;
        // (Positions only serve the cycle checks, which an acyclic problem does not need.)
        if (!e_.acyclic()) e_.refresh_positions();
        const double tolerance = 1e-9 * std::max(e_.total(), 1e-300);
        // Single moves. Releasing the old node alone bounds what any move can refund; a
        // candidate's additions stop as soon as, with that refund, it could not beat the best move
        // found so far.
        const Index old = e_.chosen(eclass);
        const std::size_t mark = e_.mark();
        const double refund_bound = e_.release(old);
        e_.revert_to(mark);
        Index best = kNone;
        double best_delta = -tolerance;
        for (Index node : p_.candidates(eclass)) {
          if (node == old) continue;
          ++stats.moves_tried;
          const std::optional<double> delta =
              e_.apply(eclass, node, best_delta, ChoiceEngine::kUnlimited, refund_bound);
          e_.revert_to(mark);
          if (delta && *delta < best_delta) {
            best_delta = *delta;
            best = node;
          }
        }
        if (best != kNone) {
          const std::optional<double> delta = e_.apply(eclass, best);
          MCTSAT_ASSERT(delta.has_value());
          e_.set_choice(eclass, best, /*keep_heights=*/false);
          e_.commit(*delta);
          improved = true;
          ++stats.moves_taken;
          continue;
        }
        // Compound moves: a candidate that does not pay for itself may bring in a few classes
        // that other needed classes could then share; take the first one that pays with those
        // follow-ups.
        for (Index node : p_.candidates(eclass)) {
          if (node == old) continue;
          ++stats.moves_tried;
          if (const std::optional<double> total = compound(eclass, node, tolerance, stats)) {
            e_.commit(*total);
            improved = true;
            ++stats.moves_taken;
            break;
          }
        }
      }
      if (!improved) break;
    }
    e_.refresh_positions();
    stats.after = e_.total();
    return stats;
  }

 private:
  // Applies `eclass` -> `node`, then, for each class the move made needed, lets the other needed
  // classes with a node using it switch to that node where this lowers the cost. Keeps everything
  // (in the log, to commit) and returns the total change when it is an improvement; otherwise
  // undoes everything.
  std::optional<double> compound(Index eclass, Index node, double tolerance, ImproveStats& stats) {
    const std::size_t mark = e_.mark();
    const std::optional<double> first =
        e_.apply(eclass, node, std::numeric_limits<double>::infinity(), kCompoundClasses);
    if (!first) return std::nullopt;
    // Worth following up only if another needed class has a node using a class it brings in.
    const bool shareable = std::any_of(e_.added().begin(), e_.added().end(), [&](Index shared) {
      const auto parents = p_.parents(shared);
      return std::any_of(parents.begin(), parents.end(), [&](Index parent) {
        const Index owner = p_.node_class(parent);
        return owner != eclass && e_.needed(owner) && e_.chosen(owner) != parent;
      });
    });
    if (!shareable || !e_.set_choice(eclass, node, /*keep_heights=*/true)) {
      e_.revert_to(mark);
      return std::nullopt;
    }
    double total = *first;
    const std::vector<Index> added = e_.added();
    for (Index shared : added) {
      if (!e_.needed(shared)) continue;
      for (Index parent : p_.parents(shared)) {
        const Index owner = p_.node_class(parent);
        if (owner == eclass || !e_.needed(owner) || e_.chosen(owner) == parent) continue;
        ++stats.moves_tried;
        const std::size_t before = e_.mark();
        if (const std::optional<double> delta = e_.apply(owner, parent, -tolerance)) {
          if (e_.set_choice(owner, parent, /*keep_heights=*/true)) {
            total += *delta;
          } else {
            e_.revert_to(before);
          }
        }
      }
    }
    if (total < -tolerance) return total;
    e_.revert_to(mark);
    return std::nullopt;
  }

  // A compound move starts with a move that makes at most this many classes needed.
  static constexpr std::size_t kCompoundClasses = 64;

  ChoiceEngine& e_;
  const Problem& p_;
};

}  // namespace

ImproveStats improve_choice(const Problem& problem, Choice& choice, std::size_t max_passes,
                            bool acyclic_shortcut) {
  ChoiceEngine engine(problem, choice, acyclic_shortcut);
  return LocalMoves(engine).run(max_passes);
}

}  // namespace mctsat::extract
