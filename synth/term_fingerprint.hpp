// Fingerprints of candidate terms for rule synthesis (TASO's and Ruler's idea): each term's graph
// is run by the reference interpreter on the same inputs — several random input sets per shape
// instance, small integers first (sums and products stay exact) then reals — and the outputs
// (shape and values, reals rounded to about six significant digits) are hashed together with
// the instances in which the term is ill-formed. Terms with equal fingerprints are candidates
// for an equality; the verifier decides. Fingerprints are computed in parallel with oneTBB and
// are the same for every thread count; a cache keyed by the term's text and the settings lets a
// larger run reuse a smaller one's. The values of the terms the caller will grow from can be
// remembered, so that a larger term costs one operator evaluation per instance and input set
// (the same values as interpreting its whole graph).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "synth/term_enumeration.hpp"
#include "tensor/tensor_value.hpp"

namespace mctsat::synth {

struct FingerprintOptions {
  std::size_t integer_sets = 2;  // input sets of small integers per shape instance
  std::size_t real_sets = 1;     // input sets of reals in [-1, 1) per shape instance
  std::int64_t integer_min = -3, integer_max = 3;
  std::uint64_t seed = 1;
  std::size_t jobs = 0;  // threads; 0 = every core
};

struct Fingerprint {
  std::uint64_t hash = 0;
  std::uint64_t valid_instances = 0;  // bit i: well-formed under shape instance i
  bool valid() const { return valid_instances != 0; }
  friend bool operator==(const Fingerprint&, const Fingerprint&) = default;
};

// Fingerprints by term text, for one setting (a file: the settings line, then one
// "HASH VALID TEXT" line per term). A file written under other settings is ignored.
class FingerprintCache {
 public:
  FingerprintCache(std::string path, std::string settings);  // loads the file if it exists
  std::optional<Fingerprint> find(const std::string& text) const;
  void insert(const std::string& text, const Fingerprint& fingerprint);
  void save() const;  // atomically; throws mctsat::Error when it cannot write
  std::size_t hits() const { return hits_; }

 private:
  std::string path_, settings_;
  std::map<std::string, Fingerprint> entries_;
  mutable std::mutex mutex_;
  mutable std::size_t hits_ = 0;
};

class Fingerprinter {
 public:
  // Draws the inputs of every instance and set (at most 64 shape instances).
  Fingerprinter(const TermPool& pool, FingerprintOptions options);

  // The fingerprints of `ids`, index for index.
  std::vector<Fingerprint> fingerprint(const std::vector<TermId>& ids,
                                       FingerprintCache* cache = nullptr) const;
  Fingerprint fingerprint(TermId id) const;

  // Keeps the output values of `ids` (terms of the pool) under every instance and input set:
  // terms built on them are then fingerprinted from them. Not while fingerprint() runs.
  void remember(const std::vector<TermId>& ids);

  // Identifies the inputs (shape instances, variables, sets, seed): the cache's settings.
  std::string settings() const;

 private:
  // A term's outputs: values[instance][set], empty for an instance where it is ill-formed.
  struct TermValues {
    std::uint64_t valid_instances = 0;
    std::vector<std::vector<tensor::Tensor>> values;
  };
  TermValues evaluate(TermId id) const;  // from the remembered values of its arguments

  const TermPool& pool_;
  FingerprintOptions options_;
  std::vector<std::vector<std::map<std::string, tensor::Tensor>>> inputs_;  // [instance][set]
  std::vector<std::unique_ptr<const TermValues>> remembered_;               // by term id
};

}  // namespace mctsat::synth
