// Rule candidates from fingerprint buckets, and their shape conditions (see candidate_rules.hpp).
#include "synth/candidate_rules.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "dsl/printer.hpp"

namespace mctsat::synth {
namespace {

std::string canonical_name(std::size_t index) {
  static const char* const kNames[] = {"x", "y", "z", "u", "v", "w"};
  return index < 6 ? kNames[index] : fmt::format("x{}", index + 1);
}

// Renames the term's variables from vocabulary names to canonical ones, assigning new canonical
// names in order of first occurrence.
void rename(dsl::Term& term, const SynthesisVocabulary& vocabulary, std::vector<std::string>& names,
            std::size_t& next) {
  if (term.kind == dsl::Term::Kind::kVar) {
    const std::size_t v = vocabulary.find_variable(term.name);
    if (names[v].empty()) names[v] = canonical_name(next++);
    term.name = names[v];
    return;
  }
  for (auto& arg : term.args) rename(arg, vocabulary, names, next);
}

bool contains(std::uint64_t all, std::uint64_t part) {
  return (all & part) == part;
}

}  // namespace

std::vector<CandidateRule> propose_candidates(const TermPool& pool, const std::vector<TermId>& ids,
                                              const std::vector<Fingerprint>& fingerprints,
                                              const std::vector<ProposedPair>& pairs) {
  struct Member {
    std::size_t ops;
    std::string text;
    TermId id;
    bool operator<(const Member& o) const {
      return std::tie(ops, text, id) < std::tie(o.ops, o.text, o.id);
    }
  };
  // Buckets in order of fingerprint: the terms' indices sorted by it. Texts are made only for
  // the buckets of two or more terms (most of the largest terms are alone in theirs).
  std::vector<std::size_t> order;
  for (std::size_t k = 0; k < ids.size(); ++k)
    if (fingerprints[k].valid()) order.push_back(k);
  auto bucket_key = [&](std::size_t k) {
    return std::make_pair(fingerprints[k].hash, fingerprints[k].valid_instances);
  };
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::make_pair(bucket_key(a), a) < std::make_pair(bucket_key(b), b);
  });
  const SynthesisVocabulary& vocabulary = pool.vocabulary();
  std::vector<CandidateRule> out;
  std::set<std::string> seen;
  // The candidate lhs => rhs (rhs's variables among lhs's), unless proposed before.
  auto propose = [&](TermId lhs_id, TermId rhs_id, const Fingerprint& fingerprint) {
    const GraphTerm& lhs = pool.term(lhs_id);
    const GraphTerm& rhs = pool.term(rhs_id);
    CandidateRule c;
    c.lhs = lhs_id;
    c.rhs = rhs_id;
    // Read right to left, a rule whose right-hand side is part of its left-hand side would
    // wrap a term in itself (an e-class holding a cycle): those stay one-way.
    c.bidirectional = lhs.variables == rhs.variables && rhs.choice != GraphTerm::kVariable &&
                      !std::binary_search(lhs.operators.begin(), lhs.operators.end(), rhs_id);
    c.fingerprint = fingerprint;
    c.lhs_ops = lhs.ops();
    c.rhs_ops = rhs.ops();
    c.variables.assign(vocabulary.variables.size(), "");
    std::size_t next = 0;
    dsl::Term l = pool.dsl_term(c.lhs), rt = pool.dsl_term(c.rhs);
    rename(l, vocabulary, c.variables, next);
    rename(rt, vocabulary, c.variables, next);
    c.lhs_text = dsl::format_term(l);
    c.rhs_text = dsl::format_term(rt);
    if (!seen.insert(c.lhs_text + " => " + c.rhs_text).second) return;
    if (c.bidirectional) {
      // The same rule read right to left, renamed from its own first occurrences.
      std::vector<std::string> names(vocabulary.variables.size());
      std::size_t n = 0;
      dsl::Term l2 = pool.dsl_term(c.rhs), r2 = pool.dsl_term(c.lhs);
      rename(l2, vocabulary, names, n);
      rename(r2, vocabulary, names, n);
      seen.insert(dsl::format_term(l2) + " => " + dsl::format_term(r2));
    }
    out.push_back(std::move(c));
  };
  std::vector<Member> members;
  for (std::size_t begin = 0, end = 0; begin < order.size(); begin = end) {
    const auto key = bucket_key(order[begin]);
    end = begin + 1;
    while (end < order.size() && bucket_key(order[end]) == key) ++end;
    if (end - begin < 2) continue;
    members.clear();
    for (std::size_t i = begin; i < end; ++i)
      members.push_back({pool.term(ids[order[i]]).ops(), pool.text(ids[order[i]]), ids[order[i]]});
    std::sort(members.begin(), members.end());
    for (std::size_t m = 1; m < members.size(); ++m) {
      const GraphTerm& lhs = pool.term(members[m].id);
      std::size_t r = 0;
      while (r < m && !contains(lhs.variables, pool.term(members[r].id).variables)) ++r;
      if (r < m) propose(members[m].id, members[r].id, {key.first, key.second});
    }
  }
  for (const auto& pair : pairs)
    if (contains(pool.term(pair.lhs).variables, pool.term(pair.rhs).variables))
      propose(pair.lhs, pair.rhs, pair.fingerprint);
  // By size; then more variables first (a more general rule tends to derive the special ones).
  auto key = [](const CandidateRule& c) {
    const auto used = std::count_if(c.variables.begin(), c.variables.end(),
                                    [](const std::string& n) { return !n.empty(); });
    return std::make_tuple(c.size(), -used, c.lhs_ops, c.lhs_text, c.rhs_text);
  };
  std::sort(out.begin(), out.end(),
            [&](const CandidateRule& a, const CandidateRule& b) { return key(a) < key(b); });
  return out;
}

ShapeConditions shape_conditions(const CandidateRule& candidate,
                                 const SynthesisVocabulary& vocabulary) {
  // Variables by canonical name, in canonical order.
  std::vector<std::size_t> used;
  for (std::size_t v = 0; v < candidate.variables.size(); ++v)
    if (!candidate.variables[v].empty()) used.push_back(v);
  std::sort(used.begin(), used.end(), [&](std::size_t a, std::size_t b) {
    const auto& na = candidate.variables[a];
    const auto& nb = candidate.variables[b];
    return std::make_pair(na.size(), na) < std::make_pair(nb.size(), nb);
  });
  ShapeConditions out;
  std::vector<std::size_t> representatives;  // one variable per distinct declared shape
  for (std::size_t v : used) {
    const auto& dims = vocabulary.variables[v].dims;
    const auto same =
        std::find_if(representatives.begin(), representatives.end(),
                     [&](std::size_t r) { return vocabulary.variables[r].dims == dims; });
    if (same != representatives.end()) {
      out.same_shapes.push_back(
          fmt::format("same_shape(?{}, ?{})", candidate.variables[*same], candidate.variables[v]));
      continue;
    }
    representatives.push_back(v);
    out.ranks.push_back(fmt::format("rank(?{}) == {}", candidate.variables[v], dims.size()));
  }
  std::map<std::string, std::string> first;  // symbol -> its first dim(...) expression
  for (std::size_t v : representatives) {
    const auto& dims = vocabulary.variables[v].dims;
    for (std::size_t axis = 0; axis < dims.size(); ++axis) {
      const std::string dim = fmt::format("dim(?{}, {})", candidate.variables[v], axis);
      if (dims[axis].symbol.empty()) {
        out.dims.push_back(fmt::format("{} == {}", dim, dims[axis].size));
      } else if (const auto found = first.find(dims[axis].symbol); found != first.end()) {
        out.dims.push_back(fmt::format("{} == {}", found->second, dim));
      } else {
        first.emplace(dims[axis].symbol, dim);
      }
    }
  }
  return out;
}

}  // namespace mctsat::synth
