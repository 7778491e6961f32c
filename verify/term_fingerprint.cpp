// Fingerprinting terms with the reference interpreter (see term_fingerprint.hpp).
#include "verify/term_fingerprint.hpp"

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

namespace mctsat::verify {
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

Fingerprint Fingerprinter::fingerprint(TermId id) const {
  Fingerprint f;
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    std::optional<tensor::Graph> graph;
    try {
      graph.emplace(pool_.graph(id, i));
    } catch (const Error&) {
      hash = hash_combine(hash, kIllFormed);
      continue;
    }
    f.valid_instances |= std::uint64_t{1} << i;
    for (const auto& inputs : inputs_[i]) {
      const tensor::Tensor out = tensor::interpret(*graph, inputs).at(0);
      for (std::int64_t d : out.shape) hash = hash_combine(hash, static_cast<std::uint64_t>(d));
      hash = hash_combine(hash, out.shape.size());
      for (double v : out.data) hash = hash_combine(hash, value_hash(v));
    }
  }
  f.hash = hash;
  return f;
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

}  // namespace mctsat::verify
