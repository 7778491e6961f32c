// Fingerprints of synthesis terms: equal for terms equal by a law, different otherwise, with the
// instances where a term is ill-formed marked (merge needs an even group count); the same whether
// the arguments' values were remembered or are evaluated again, and for any thread count.
#include <doctest/doctest.h>

#include "synth/term_fingerprint.hpp"

using namespace mctsat;
using namespace mctsat::synth;

namespace {

// The one term of `pool` printed as `text`.
TermId find(const TermPool& pool, const std::string& text) {
  for (TermId id = 0; id < pool.size(); ++id)
    if (pool.text(id) == text) return id;
  FAIL("no term " << text);
  return 0;
}

}  // namespace

TEST_CASE("fingerprints follow the values, mark ill-formed instances, and reuse remembered ones") {
  // c=4, k=1: four groups; c=6, k=2: three (merge 2 cannot join them).
  const auto vocabulary = make_vocabulary({"conv2d,relu,merge"}, {"x:b,c,h,h", "g:c,k,3,3"},
                                          {"b=1", "c=4,6", "k=1,2", "h=3"});
  TermPool pool(vocabulary);
  const std::vector<TermId> variables = {0, 1};
  const Growth singles = pool.grow(1, variables, 1000);
  std::vector<TermId> usable = variables;
  usable.insert(usable.end(), singles.ids.begin(), singles.ids.end());
  const Growth grown = pool.grow(2, usable, 100'000);
  REQUIRE_FALSE(grown.truncated());
  const std::vector<TermId>& doubles = grown.ids;

  FingerprintOptions options;
  options.jobs = 2;
  Fingerprinter fresh(pool, options);
  const std::vector<Fingerprint> before = fresh.fingerprint(doubles);
  Fingerprinter remembering(pool, options);
  remembering.remember(usable);
  CHECK(remembering.fingerprint(doubles) == before);
  options.jobs = 1;
  CHECK(Fingerprinter(pool, options).fingerprint(doubles) == before);

  const Fingerprint merged = fresh.fingerprint(find(pool, "(merge ?g 2)"));
  CHECK(merged.valid_instances == 1);  // four groups, not three
  CHECK(fresh.fingerprint(find(pool, "(merge ?x 2)")).valid_instances == 0);
  CHECK(fresh.fingerprint(find(pool, "(relu (relu ?x))")) ==
        fresh.fingerprint(find(pool, "(relu ?x)")));
  CHECK(fresh.fingerprint(find(pool, "(conv2d 1 1 0 2 ?x ?g)")) ==
        fresh.fingerprint(find(pool, "(relu (conv2d 1 1 0 0 ?x ?g))")));
  CHECK(fresh.fingerprint(find(pool, "(conv2d 1 1 0 0 ?x ?g)")) !=
        fresh.fingerprint(find(pool, "(conv2d 1 1 1 0 ?x ?g)")));  // SAME is not VALID
}
