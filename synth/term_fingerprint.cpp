// Fingerprinting terms with the reference interpreter (see term_fingerprint.hpp).
#include "synth/term_fingerprint.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "support/error.hpp"
#include "support/files.hpp"
#include "support/splitmix64.hpp"
#include "support/stable_hash.hpp"
#include "tensor/interpreter.hpp"
#include "tensor/reference_kernels.hpp"

namespace mctsat::synth {
namespace {

constexpr std::uint64_t kIllFormed = 0x6a09e667f3bcc908ULL;
constexpr std::uint64_t kNotANumber = 0xbb67ae8584caa73bULL;

// Reals rounded to about six significant digits, so that sums taken in another order agree.
std::uint64_t value_hash(double v) {
  if (std::isnan(v)) return kNotANumber;
  if (std::isinf(v)) return v > 0 ? 1 : 2;
  if (v == 0) return 0;
  int exponent = 0;
  const double mantissa = std::frexp(v, &exponent);  // in [0.5, 1)
  const auto digits = static_cast<std::int64_t>(std::llround(mantissa * 1e6));
  return hash_combine(static_cast<std::uint64_t>(digits), static_cast<std::uint64_t>(exponent));
}

tensor::Tensor integer_tensor(const tensor::Shape& shape, std::uint64_t seed,
                              const FingerprintOptions& o) {
  SplitMix64 random(seed);
  tensor::Tensor t(shape);
  const auto span = static_cast<std::uint32_t>(o.integer_max - o.integer_min + 1);
  for (double& v : t.data) v = static_cast<double>(o.integer_min + random.below(span));
  return t;
}

}  // namespace

FingerprintCache::FingerprintCache(std::string path, std::string settings)
    : path_(std::move(path)), settings_(std::move(settings)) {
  if (!std::filesystem::exists(path_)) return;
  std::istringstream in(read_text_file(path_));
  std::string line;
  if (!std::getline(in, line) || line != settings_) return;  // other settings: start afresh
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    Fingerprint f;
    std::string text;
    if (!(fields >> std::hex >> f.hash >> f.valid_instances)) continue;
    std::getline(fields >> std::ws, text);
    entries_[text] = f;
  }
}

std::optional<Fingerprint> FingerprintCache::find(const std::string& text) const {
  const std::lock_guard lock(mutex_);
  const auto found = entries_.find(text);
  if (found == entries_.end()) return std::nullopt;
  ++hits_;
  return found->second;
}

void FingerprintCache::insert(const std::string& text, const Fingerprint& fingerprint) {
  const std::lock_guard lock(mutex_);
  entries_[text] = fingerprint;
}

void FingerprintCache::save() const {
  const std::lock_guard lock(mutex_);
  std::string out = settings_ + "\n";
  for (const auto& [text, f] : entries_)
    out += fmt::format("{:016x} {:x} {}\n", f.hash, f.valid_instances, text);
  write_file_atomically(path_, out);
}

Fingerprinter::Fingerprinter(const TermPool& pool, FingerprintOptions options)
    : pool_(pool), options_(options) {
  const SynthesisVocabulary& vocabulary = pool.vocabulary();
  if (vocabulary.instances.size() > 64) throw Error("synthesis takes at most 64 shape instances");
  if (options_.integer_min > options_.integer_max ||
      options_.integer_max - options_.integer_min > 1'000'000)
    throw Error("fingerprint integers: the range must be non-empty and at most a million wide");
  const std::size_t sets = options_.integer_sets + options_.real_sets;
  if (sets == 0) throw Error("fingerprints need at least one input set");
  for (std::size_t i = 0; i < vocabulary.instances.size(); ++i) {
    inputs_.emplace_back(sets);
    for (std::size_t s = 0; s < sets; ++s)
      for (std::size_t v = 0; v < vocabulary.variables.size(); ++v) {
        const std::string& name = vocabulary.variables[v].name;
        const tensor::Shape shape = vocabulary.shape(v, i);
        const std::uint64_t seed =
            hash_combine(hash_combine(hash_combine(options_.seed, i), s), fnv1a(name));
        inputs_[i][s].emplace(name, s < options_.integer_sets
                                        ? integer_tensor(shape, seed, options_)
                                        : tensor::random_tensor(shape, seed, name));
      }
  }
}

std::string Fingerprinter::settings() const {
  const SynthesisVocabulary& vocabulary = pool_.vocabulary();
  std::string text = fmt::format("mctsat-fingerprints-1 seed {} sets {}+{} integers {}..{}",
                                 options_.seed, options_.integer_sets, options_.real_sets,
                                 options_.integer_min, options_.integer_max);
  for (std::size_t i = 0; i < vocabulary.instances.size(); ++i) {
    text += " |";
    for (std::size_t v = 0; v < vocabulary.variables.size(); ++v)
      text += fmt::format(" {}:{}", vocabulary.variables[v].name,
                          tensor::shape_string(vocabulary.shape(v, i)));
  }
  return text;
}

Fingerprinter::TermValues Fingerprinter::evaluate(TermId id) const {
  const GraphTerm& term = pool_.term(id);
  TermValues out;
  out.values.resize(inputs_.size());
  if (term.choice == GraphTerm::kVariable) {
    const std::string& name = pool_.vocabulary().variables[term.variable].name;
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
      out.valid_instances |= std::uint64_t{1} << i;
      for (const auto& inputs : inputs_[i]) out.values[i].push_back(inputs.at(name));
    }
    return out;
  }
  // The arguments' values: remembered, else evaluated here (terms the caller did not keep).
  std::vector<TermValues> computed(term.args.size());
  std::vector<const TermValues*> args;
  for (std::size_t k = 0; k < term.args.size(); ++k) {
    const TermId a = term.args[k];
    if (a < remembered_.size() && remembered_[a]) {
      args.push_back(remembered_[a].get());
    } else {
      computed[k] = evaluate(a);
      args.push_back(&computed[k]);
    }
  }
  const OperatorChoice& choice = pool_.vocabulary().choices[term.choice];
  std::vector<tensor::Tensor> operands(args.size());
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    const bool valid = std::all_of(args.begin(), args.end(), [&](const TermValues* a) {
      return (a->valid_instances >> i & 1) != 0;
    });
    if (!valid) continue;
    try {
      for (std::size_t s = 0; s < inputs_[i].size(); ++s) {
        for (std::size_t k = 0; k < args.size(); ++k) operands[k] = args[k]->values[i][s];
        out.values[i].push_back(tensor::evaluate_op(choice.op, operands, choice.attrs).at(0));
      }
      out.valid_instances |= std::uint64_t{1} << i;
    } catch (const Error&) {  // the operator's shape function rejects its inputs here
      out.values[i].clear();
    }
  }
  return out;
}

Fingerprint Fingerprinter::fingerprint(TermId id) const {
  const TermValues values = evaluate(id);
  Fingerprint f;
  f.valid_instances = values.valid_instances;
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    if ((values.valid_instances >> i & 1) == 0) {
      hash = hash_combine(hash, kIllFormed);
      continue;
    }
    for (const tensor::Tensor& out : values.values[i]) {
      for (std::int64_t d : out.shape) hash = hash_combine(hash, static_cast<std::uint64_t>(d));
      hash = hash_combine(hash, out.shape.size());
      for (double v : out.data) hash = hash_combine(hash, value_hash(v));
    }
  }
  f.hash = hash;
  return f;
}

void Fingerprinter::remember(const std::vector<TermId>& ids) {
  // Evaluated in parallel from what was remembered before, then stored.
  std::vector<TermValues> values(ids.size());
  const int threads = options_.jobs == 0 ? tbb::this_task_arena::max_concurrency()
                                         : static_cast<int>(options_.jobs);
  tbb::task_arena arena(threads);
  arena.execute([&] {
    tbb::parallel_for(std::size_t{0}, ids.size(),
                      [&](std::size_t k) { values[k] = evaluate(ids[k]); });
  });
  if (remembered_.size() < pool_.size()) remembered_.resize(pool_.size());
  for (std::size_t k = 0; k < ids.size(); ++k)
    remembered_.at(ids[k]) = std::make_unique<const TermValues>(std::move(values[k]));
}

std::vector<Fingerprint> Fingerprinter::fingerprint(const std::vector<TermId>& ids,
                                                    FingerprintCache* cache) const {
  std::vector<Fingerprint> out(ids.size());
  auto one = [&](std::size_t k) {
    if (cache == nullptr) {
      out[k] = fingerprint(ids[k]);
      return;
    }
    const std::string text = pool_.text(ids[k]);
    if (const auto hit = cache->find(text)) {
      out[k] = *hit;
      return;
    }
    out[k] = fingerprint(ids[k]);
    cache->insert(text, out[k]);
  };
  const int threads = options_.jobs == 0 ? tbb::this_task_arena::max_concurrency()
                                         : static_cast<int>(options_.jobs);
  tbb::task_arena arena(threads);
  arena.execute([&] { tbb::parallel_for(std::size_t{0}, ids.size(), one); });
  return out;
}

}  // namespace mctsat::synth
