// The extraction interface: an Extractor turns a Problem (an e-graph, its roots and per-node
// costs) into a Result: one chosen node per class needed from the roots, scored by the exact DAG
// cost (dag_cost.hpp), with the time taken and extractor-specific statistics. `make_extractor`
// creates one by name:
//
//   greedy  bottom-up tree cost to a fixpoint (egg's extractor, the paper's "DCF")
//   paper   the PACT'24 paper's sharing-aware greedy ("OCF")
//   dag     ours: DAG-aware greedy with per-class cost sets, then local improvement passes, then
//           (optionally, ExtractorOptions::dag_restarts) seeded restarts from perturbed costs,
//           then chain moves (ExtractorOptions::dag_chains, on by default)
//   ilp     integer linear programming with CBC, lazily added cycle cuts, warm start from `dag`
//   beam    width-bounded dynamic programming over frontiers from `dag`'s cost, with a proven
//           lower bound (frontier_search.hpp)
//
// `Extractor::extract` is not virtual: it runs the extractor's `solve`, keeps the chosen nodes
// of the needed classes only, checks the choice and scores it with `dag_cost`, so that no
// extractor can report a cost of its own making. Everything is deterministic.
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "extract/dag_cost.hpp"
#include "extract/problem.hpp"
#include "support/enum_names.hpp"

namespace mctsat::extract {

enum class Status {
  kOptimal,      // proven optimal (ilp, beam)
  kHeuristic,    // a heuristic's extraction (greedy, paper, dag; beam when its bound is below)
  kTimeLimit,    // ilp stopped at its time limit: the best extraction found, optimality not proven
  kMemoryLimit,  // ilp's solver ran out of its memory: the best extraction found, not proven
  kInfeasible,   // some root has no acyclic extraction from non-forbidden nodes
};
std::string_view status_name(Status status);  // "optimal", "heuristic", "time limit", ...

struct Result {
  Choice choice;  // by class: the chosen node of each needed class, kNone elsewhere
  double dag_cost = std::numeric_limits<double>::infinity();  // exact (dag_cost.hpp); inf if none
  // The extractor's own estimate of the roots' cost: the sum of the roots' tree costs (greedy),
  // of their OCF values (paper), of their DAG-greedy values (dag; the tree cost when that phase
  // is skipped), the DAG cost of the last acyclic ILP solution (ilp). NaN when there is none.
  double estimate = std::numeric_limits<double>::quiet_NaN();
  double seconds = 0;  // wall time of extract(), scoring included
  Status status = Status::kHeuristic;
  // ilp, beam: a lower bound on the optimum and the relative gap (dag_cost - bound) / dag_cost.
  double lower_bound = std::numeric_limits<double>::quiet_NaN();
  double gap = std::numeric_limits<double>::quiet_NaN();
  // node evaluations (fixpoints), moves tried (dag), solves (ilp), frontiers created (beam)
  std::size_t evaluations = 0;
  std::size_t improvements = 0;  // class values improved (fixpoints), moves taken (dag)
  std::size_t cuts = 0;          // ilp: cycle cuts added
  bool warm_start_kept = false;  // ilp, beam: the warm start was returned (nothing better found)
  std::string detail;            // a human-readable note (e.g. why ilp stopped)
};

struct ExtractorOptions {
  double time_limit_seconds = 10.0;  // ilp: wall time for all solves together
  // ilp: how far the CBC process's address space may grow (bytes); an allocation beyond it stops
  // CBC and the best extraction so far is kept.
  std::size_t solver_memory_bytes = std::numeric_limits<std::size_t>::max();
  std::size_t max_passes = 64;  // dag: improvement passes at most
  // dag: the most memory the per-class cost sets may take (bytes); above it the DAG-aware greedy
  // phase is skipped and improvement starts from the tree-cost greedy extraction.
  std::size_t max_set_bytes = std::size_t{1} << 30;
  bool improve = true;  // dag: run the improvement passes
  // dag: restarts after the first extraction (its effort). Each runs the DAG-aware greedy on node
  // costs scaled by seeded random factors, improves that extraction with the true costs and keeps
  // it when it is cheaper, then runs chain moves on the best (dag_extractor.hpp). 0, the default,
  // keeps `dag` as fast as a reward inside search needs; the extraction study uses
  // kStudyDagRestarts. Deterministic for a seed.
  std::size_t dag_restarts = 0;
  // dag: no restart starts after this time (a search's reward counts them against its budget,
  // whatever dag_restarts says); the first extraction and the chain moves always run.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  std::uint64_t dag_seed = 1;
  // dag: stop restarting when the first this many restarts all end at the first extraction's
  // cost (a single basin, it seems); 0: never stop early.
  std::size_t dag_converged = 2;
  // dag: run the chain moves (dag_extractor.hpp, item 4) from the first extraction also without
  // restarts (with restarts they always run). On by default, for what they reach and what they
  // cost: bench/results/extraction.md and docs/results.md (the chains-reward study).
  bool dag_chains = true;
  // beam (frontier_search.hpp): frontiers kept by the search, by each class's bounding search,
  // and the positions a class's bounding search covers.
  std::size_t beam_width = 10000;
  std::size_t beam_class_width = 100;
  std::uint32_t beam_horizon = 32;
};

// The restarts the extraction study (bench/results/extraction.md) gives `dag`.
inline constexpr std::size_t kStudyDagRestarts = 64;

class Extractor {
 public:
  virtual ~Extractor() = default;
  virtual std::string name() const = 0;
  // Extracts for the problem's roots. The result's choice is valid (or the status kInfeasible
  // and the choice empty); dag_cost is that choice's exact cost.
  Result extract(const Problem& problem) const;

 protected:
  // Fills result.choice (over any classes: only those needed from the roots are kept), the
  // status and the statistics. A choice that is not a valid extraction is an internal error,
  // except with status kInfeasible.
  virtual void solve(const Problem& problem, Result& result) const = 0;
};

enum class ExtractorKind { kGreedy, kPaper, kDag, kIlp, kBeam };
inline constexpr EnumNames<ExtractorKind, 5> kExtractorNames{{{ExtractorKind::kGreedy, "greedy"},
                                                              {ExtractorKind::kPaper, "paper"},
                                                              {ExtractorKind::kDag, "dag"},
                                                              {ExtractorKind::kIlp, "ilp"},
                                                              {ExtractorKind::kBeam, "beam"}}};

// A result as `mctsat extract --json` reports it: {dag_cost, seconds, status, lower_bound, gap,
// detail}, null for an infinite cost and for NaN bounds and gaps.
nlohmann::json result_json(const Result& result);

// The names make_extractor knows, in a fixed order.
std::vector<std::string> extractor_names();
std::unique_ptr<Extractor> make_extractor(ExtractorKind kind, const ExtractorOptions& options = {});
// Throws mctsat::Error naming the known extractors for an unknown name.
std::unique_ptr<Extractor> make_extractor(std::string_view name,
                                          const ExtractorOptions& options = {});

}  // namespace mctsat::extract
