// `beam`: extraction by width-bounded dynamic programming over frontiers (frontier_search.hpp),
// with a proven lower bound on the optimum.
//
// It first extracts with `dag` (with the options' dag_restarts) for an upper bound, computes the
// class bounds (ExtractorOptions::beam_class_width, beam_horizon), then searches with at most
// ExtractorOptions::beam_width frontiers, pruning at the `dag` cost. It returns the cheaper of the
// search's extraction and `dag`'s, with the search's lower bound (Result::lower_bound, gap), and
// the status kOptimal when the bound reaches the cost. On a cyclic problem the search's bound is
// still valid but its extraction is not used (edges to earlier classes were dropped). The bound is
// what the ILP cannot give on large random e-graphs (bench/results/extraction.md, "Lower bounds").
// Deterministic (no time limit).
#pragma once

#include "extract/extractor.hpp"

namespace mctsat::extract {

class BeamExtractor final : public Extractor {
 public:
  explicit BeamExtractor(ExtractorOptions options = {}) : options_(options) {}
  std::string name() const override { return "beam"; }

 protected:
  void solve(const Problem& problem, Result& result) const override;

 private:
  ExtractorOptions options_;
};

}  // namespace mctsat::extract
