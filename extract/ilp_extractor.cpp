// The ILP extractor: model building, CBC solves with lazily added cycle cuts, the warm start.
#include "extract/ilp_extractor.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <coin/CbcModel.hpp>
#include <coin/CbcSolver.hpp>
#include <coin/CoinPackedMatrix.hpp>
#include <coin/OsiClpSolverInterface.hpp>

#include "extract/dag_extractor.hpp"
#include "extract/frontier_search.hpp"
#include "extract/greedy_extractor.hpp"
#include "support/error.hpp"
#include "support/isolated_call.hpp"

#if defined(__SANITIZE_ADDRESS__)
// CBC 2.10 leaks a few cut objects per solve (OsiRowCut::clone inside its cut management); that
// is not ours to fix, so LeakSanitizer is told to ignore leaks from the COIN-OR libraries in any
// program that links the ILP extractor. (Weak, so a program may still define its own.)
extern "C" __attribute__((weak)) const char* __lsan_default_suppressions() {
  return "leak:libOsi.so\nleak:libCbc.so\nleak:libCbcSolver.so\nleak:libCgl.so\n"
         "leak:libClp.so\nleak:libOsiClp.so\nleak:libCoinUtils.so\n";
}
#endif

namespace mctsat::extract {
namespace {

using Clock = std::chrono::steady_clock;

// The columns (usable nodes of reachable classes) and the fixed rows of the model.
struct Model {
  std::vector<Index> classes;    // model classes (problem indices), ascending
  std::vector<Index> columns;    // by column: the problem node
  std::vector<Index> column_of;  // by problem node: its column, kNone when not in the model
  std::vector<int> row_index, column_index;
  std::vector<double> elements, row_lower, row_upper;
};

Model build_model(const Problem& problem) {
  const TreeCosts tree = tree_costs(problem);
  auto usable = [&](Index node) {
    const Index eclass = problem.node_class(node);
    for (Index child : problem.unique_children(node))
      if (child == eclass || std::isinf(tree.cost[child])) return false;
    return true;
  };
  // Classes reachable from the roots through usable nodes.
  Model m;
  std::vector<std::uint8_t> reached(problem.num_classes(), 0);
  std::vector<Index> stack;
  for (Index root : problem.roots())
    if (!reached[root]) reached[root] = 1, stack.push_back(root);
  while (!stack.empty()) {
    const Index eclass = stack.back();
    stack.pop_back();
    for (Index node : problem.candidates(eclass)) {
      if (!usable(node)) continue;
      for (Index child : problem.unique_children(node))
        if (!reached[child]) reached[child] = 1, stack.push_back(child);
    }
  }
  m.column_of.assign(problem.num_nodes(), kNone);
  for (Index eclass = 0; eclass < problem.num_classes(); ++eclass) {
    if (!reached[eclass]) continue;
    m.classes.push_back(eclass);
    for (Index node : problem.candidates(eclass)) {
      if (!usable(node)) continue;
      m.column_of[node] = static_cast<Index>(m.columns.size());
      m.columns.push_back(node);
    }
  }
  int row = 0;
  auto entry = [&](Index column, double value) {
    m.row_index.push_back(row);
    m.column_index.push_back(static_cast<int>(column));
    m.elements.push_back(value);
  };
  std::vector<std::uint8_t> is_root(problem.num_classes(), 0);
  for (Index root : problem.roots()) is_root[root] = 1;
  // One node per class at most; exactly one for a root.
  for (Index eclass : m.classes) {
    for (Index node : problem.candidates(eclass))
      if (m.column_of[node] != kNone) entry(m.column_of[node], 1.0);
    m.row_lower.push_back(is_root[eclass] ? 1.0 : 0.0);
    m.row_upper.push_back(1.0);
    ++row;
  }
  // A chosen node needs a chosen node in each child class.
  for (Index column = 0; column < m.columns.size(); ++column) {
    for (Index child : problem.unique_children(m.columns[column])) {
      entry(column, 1.0);
      for (Index node : problem.candidates(child))
        if (m.column_of[node] != kNone) entry(m.column_of[node], -1.0);
      m.row_lower.push_back(-COIN_DBL_MAX);
      m.row_upper.push_back(0.0);
      ++row;
    }
  }
  return m;
}

struct Cut {
  std::vector<Index> columns;  // the nodes of a cycle
};

struct SolveOutcome {
  std::vector<double> solution;  // empty when CBC found none
  double bound = -COIN_DBL_MAX;  // in scaled units
  bool optimal = false;
  int crash_signal = 0;        // the signal that killed the solving process, if one did
  bool timed_out = false;      // the solving process overran its time limit and was killed
  bool out_of_memory = false;  // the solving process went beyond its memory budget
};

int no_callback(CbcModel*, int) {
  return 0;
}

// One CBC solve of the model plus cuts, started from `start` (a feasible 0/1 vector).
SolveOutcome run_cbc(const Model& m, const std::vector<Cut>& cuts, const std::vector<double>& cost,
                     const std::vector<double>& start, double seconds) {
  std::vector<int> rows = m.row_index, columns = m.column_index;
  std::vector<double> elements = m.elements, lower = m.row_lower, upper = m.row_upper;
  int row = static_cast<int>(m.row_lower.size());
  for (const Cut& cut : cuts) {
    for (Index column : cut.columns) {
      rows.push_back(row);
      columns.push_back(static_cast<int>(column));
      elements.push_back(1.0);
    }
    lower.push_back(-COIN_DBL_MAX);
    upper.push_back(static_cast<double>(cut.columns.size()) - 1.0);
    ++row;
  }
  const auto n = static_cast<int>(m.columns.size());
  CoinPackedMatrix matrix(false, rows.data(), columns.data(), elements.data(),
                          static_cast<CoinBigIndex>(elements.size()));
  matrix.setDimensions(row, n);
  const std::vector<double> column_lower(m.columns.size(), 0.0),
      column_upper(m.columns.size(), 1.0);

  OsiClpSolverInterface solver;
  solver.messageHandler()->setLogLevel(0);
  solver.getModelPtr()->setLogLevel(0);
  solver.loadProblem(matrix, column_lower.data(), column_upper.data(), cost.data(), lower.data(),
                     upper.data());
  for (int i = 0; i < n; ++i) solver.setInteger(i);

  CbcModel model(solver);
  model.setLogLevel(0);
  model.messageHandler()->setLogLevel(0);
  model.solver()->messageHandler()->setLogLevel(0);
  CbcSolverUsefulData data;
  data.noPrinting_ = true;
  CbcMain0(model, data);
  double start_objective = 0;
  for (int i = 0; i < n; ++i) start_objective += cost[i] * start[i];
  model.setBestSolution(start.data(), n, start_objective, false);
  const std::string limit = fmt::format("{:.3f}", std::max(seconds, 0.001));
  const char* argv[] = {"mctsat",  "-log", "0",           "-slog",  "0",    "-timeMode",
                        "elapsed", "-sec", limit.c_str(), "-solve", "-quit"};
  CbcMain1(static_cast<int>(std::size(argv)), argv, model, no_callback, data);

  SolveOutcome outcome;
  if (model.bestSolution() != nullptr)
    outcome.solution.assign(model.bestSolution(), model.bestSolution() + n);
  outcome.optimal = model.isProvenOptimal();
  outcome.bound = model.getBestPossibleObjValue();
  return outcome;
}

// How long past its own time limit a CBC child may take to return before it is killed: CBC checks
// the limit only between steps, and its presolve of a large model (a chain of 50,000 classes)
// takes minutes without a check.
constexpr double kSolverGraceSeconds = 1.0;

// run_cbc in a child process (support/isolated_call.hpp). CBC can crash: with a starting
// solution, its preprocessing's post-processing dies with SIGSEGV when the time limit stops a large
// solve (NASNet-A saturated to 50,004 e-nodes, 3 or 10 s), which would take the whole program
// down; turning preprocessing off avoids it but loses NASRNN's proven optimum (46.94% in 9 s ->
// 41.77% at the 10 s limit). A child also keeps CbcMain's global state to itself, so solves may
// run concurrently. A crashed child yields no solution and its signal; a child still running
// kSolverGraceSeconds after its time limit is killed and yields no solution, as does one that
// needs more than `memory_bytes` beyond what it inherits.
SolveOutcome run_cbc_isolated(const Model& m, const std::vector<Cut>& cuts,
                              const std::vector<double>& cost, const std::vector<double>& start,
                              double seconds, std::size_t memory_bytes) {
  const IsolatedOutcome isolated = run_isolated(
      [&] {
        const SolveOutcome outcome = run_cbc(m, cuts, cost, start, seconds);
        std::vector<double> answer = {outcome.optimal ? 1.0 : 0.0, outcome.bound};
        answer.insert(answer.end(), outcome.solution.begin(), outcome.solution.end());
        return answer;
      },
      seconds + kSolverGraceSeconds, memory_bytes);
  SolveOutcome outcome;
  outcome.crash_signal = isolated.crash_signal;
  outcome.timed_out = isolated.timed_out;
  outcome.out_of_memory = isolated.out_of_memory;
  if (outcome.crash_signal != 0 || outcome.timed_out || outcome.out_of_memory) return outcome;
  if (isolated.values.size() < 2) throw Error("the ILP solver's process sent an incomplete answer");
  outcome.optimal = isolated.values[0] != 0;
  outcome.bound = isolated.values[1];
  outcome.solution.assign(isolated.values.begin() + 2, isolated.values.end());
  return outcome;
}

// The choice of a 0/1 solution (the first chosen node of each class).
Choice choice_of(const Problem& problem, const Model& m, const std::vector<double>& solution) {
  Choice choice(problem.num_classes(), kNone);
  for (Index column = 0; column < m.columns.size(); ++column) {
    if (solution[column] < 0.5) continue;
    const Index node = m.columns[column];
    Index& slot = choice[problem.node_class(node)];
    if (slot == kNone) slot = node;
  }
  return choice;
}

// Cycles of the chosen subgraph reachable from the roots (one per back edge of a depth-first
// walk), as the columns of their nodes.
std::vector<Cut> find_cycles(const Problem& problem, const Model& m, const Choice& choice) {
  enum : std::uint8_t { kUnvisited, kActive, kDone };
  std::vector<std::uint8_t> state(problem.num_classes(), kUnvisited);
  struct Frame {
    Index eclass;
    std::uint32_t next_child;
  };
  std::vector<Frame> stack;
  std::vector<Cut> cycles;
  for (Index root : problem.roots()) {
    if (state[root] != kUnvisited || choice[root] == kNone) continue;
    state[root] = kActive;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      Frame& top = stack.back();
      const std::span<const Index> children = problem.unique_children(choice[top.eclass]);
      if (top.next_child == children.size()) {
        state[top.eclass] = kDone;
        stack.pop_back();
        continue;
      }
      const Index child = children[top.next_child++];
      if (state[child] == kDone || choice[child] == kNone) continue;
      if (state[child] == kActive) {
        Cut cut;
        bool on_cycle = false;
        for (const Frame& frame : stack) {
          on_cycle = on_cycle || frame.eclass == child;
          if (on_cycle) cut.columns.push_back(m.column_of[choice[frame.eclass]]);
        }
        cycles.push_back(std::move(cut));
        continue;
      }
      state[child] = kActive;
      stack.push_back({child, 0});
    }
  }
  return cycles;
}

}  // namespace

void IlpExtractor::solve(const Problem& problem, Result& result) const {
  const auto start = Clock::now();
  const Result warm = DagExtractor(options_).extract(problem);
  if (warm.status == Status::kInfeasible) {
    result.status = Status::kInfeasible;
    return;
  }
  const Model m = build_model(problem);
  // Costs scaled so that the warm start costs about 1000: CBC's tolerances are absolute.
  const double scale = warm.dag_cost > 0 ? 1000.0 / warm.dag_cost : 1.0;
  std::vector<double> cost(m.columns.size());
  for (Index column = 0; column < m.columns.size(); ++column)
    cost[column] = problem.node_cost(m.columns[column]) * scale;

  Choice best = warm.choice;
  double best_cost = warm.dag_cost;
  result.warm_start_kept = true;
  std::vector<Cut> cuts;
  bool proven = false, out_of_memory = false;
  double bound = -COIN_DBL_MAX;
  for (;;) {
    const double remaining =
        options_.time_limit_seconds - std::chrono::duration<double>(Clock::now() - start).count();
    if (remaining <= 0) {
      result.detail = result.evaluations == 0 ? "time limit reached before CBC could start (the "
                                                "model took it); the warm start is kept"
                                              : "time limit reached";
      break;
    }
    std::vector<double> x(m.columns.size(), 0.0);
    for (Index eclass = 0; eclass < best.size(); ++eclass)
      if (best[eclass] != kNone) {
        const Index column = m.column_of[best[eclass]];
        MCTSAT_ASSERT(column != kNone && "the warm start uses a node outside the model");
        x[column] = 1.0;
      }
    const SolveOutcome outcome =
        run_cbc_isolated(m, cuts, cost, x, remaining, options_.solver_memory_bytes);
    ++result.evaluations;
    if (outcome.out_of_memory) {
      out_of_memory = true;
      result.detail =
          "CBC ran out of its memory (the memory limit); the best extraction so far is kept";
      break;
    }
    if (outcome.timed_out) {
      result.detail =
          "CBC did not return within the time limit and was stopped; the best "
          "extraction so far is kept";
      break;
    }
    if (outcome.crash_signal != 0) {
      result.detail = fmt::format("CBC crashed ({}); the best extraction so far is kept",
                                  ::strsignal(outcome.crash_signal));
      break;
    }
    if (outcome.bound > bound) bound = outcome.bound;
    if (outcome.solution.empty()) {
      result.detail = "CBC found no solution within the time limit";
      break;
    }
    const Choice choice = choice_of(problem, m, outcome.solution);
    std::vector<Cut> cycles = find_cycles(problem, m, choice);
    if (cycles.empty()) {
      const double cost_found = dag_cost(problem, choice);
      if (cost_found < best_cost) {
        best = choice;
        best_cost = cost_found;
        result.warm_start_kept = false;
      }
      result.estimate = cost_found;
      proven = outcome.optimal;
      result.detail = proven ? "optimal" : "time limit reached";
      break;
    }
    result.cuts += cycles.size();
    for (Cut& cycle : cycles) cuts.push_back(std::move(cycle));
    if (!outcome.optimal) {
      result.detail = "time limit reached while cutting cycles";
      break;
    }
  }
  result.choice = std::move(best);
  if (proven) {
    result.status = Status::kOptimal;
    result.lower_bound = best_cost;
  } else {
    // CBC's bound, or the frontier search's path bound where that is higher (on the random
    // e-graphs of the extraction study, CBC's bound is 0.6-40% of the cost, the path bound
    // 40-60%); either may still prove the best extraction optimal.
    const double cbc = bound > -COIN_DBL_MAX ? bound / scale : 0.0;
    const double lower = std::max(cbc, FrontierSearch(problem).root_bound());
    result.status = lower >= best_cost * (1 - 1e-12) ? Status::kOptimal
                    : out_of_memory                  ? Status::kMemoryLimit
                                                     : Status::kTimeLimit;
    result.lower_bound = std::min(lower, best_cost);
  }
}

}  // namespace mctsat::extract
