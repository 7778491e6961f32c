// Term enumeration: TermPool::grow makes exactly the terms a plain scan of every argument tuple
// makes, in the same order — with shared subterms (hash-consing) and with arguments that are a
// subset of the pool (one per fingerprint, as synthesis grows them) — and, over its limit, an
// evenly spaced sample of them.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "support/error.hpp"
#include "synth/synthesis_vocabulary.hpp"
#include "synth/term_enumeration.hpp"

using namespace mctsat;
using namespace mctsat::synth;

namespace {

using Application = std::pair<std::size_t, std::vector<TermId>>;  // choice, arguments

// Every (choice, argument tuple) over `usable`, positions in lexicographic order, whose
// arguments hold exactly ops - 1 distinct operators together.
std::vector<Application> scanned(const TermPool& pool, std::size_t ops,
                                 const std::vector<TermId>& usable) {
  std::vector<Application> out;
  for (std::size_t c = 0; c < pool.vocabulary().choices.size(); ++c) {
    const std::size_t arity = pool.vocabulary().choices[c].arity;
    std::vector<std::size_t> digit(arity, 0);
    while (true) {
      std::vector<TermId> args;
      std::set<TermId> operators;
      for (std::size_t d : digit) {
        args.push_back(usable[d]);
        const auto& o = pool.term(usable[d]).operators;
        operators.insert(o.begin(), o.end());
      }
      if (operators.size() == ops - 1) out.emplace_back(c, args);
      std::size_t i = arity;  // the last position varies fastest
      while (i > 0 && ++digit[i - 1] == usable.size()) digit[--i] = 0;
      if (i == 0) break;
    }
  }
  return out;
}

std::vector<Application> applications(const TermPool& pool, const std::vector<TermId>& ids) {
  std::vector<Application> out;
  for (TermId id : ids) out.emplace_back(pool.term(id).choice, pool.term(id).args);
  return out;
}

}  // namespace

TEST_CASE("grow makes the terms a scan of every argument tuple makes, in its order") {
  const auto vocabulary = make_vocabulary({"ewadd,relu,concat"}, {"x:n,n", "y:n,n"}, {"n=2"});
  for (const bool every_other : {false, true}) {
    CAPTURE(every_other);
    TermPool pool(vocabulary);
    std::vector<TermId> usable = {0, 1};
    for (std::size_t ops = 1; ops <= 3; ++ops) {
      CAPTURE(ops);
      const auto expected = scanned(pool, ops, usable);
      const Growth grown = pool.grow(ops, usable, 1'000'000);
      CHECK_FALSE(grown.truncated());
      CHECK(grown.fitting == expected.size());
      CHECK(applications(pool, grown.ids) == expected);
      // Keeping a subset (closed under subterms, as each size keeps its own) as synthesis
      // keeps one term per fingerprint.
      for (std::size_t k = 0; k < grown.ids.size(); ++k)
        if (!every_other || k % 2 == 0) usable.push_back(grown.ids[k]);
    }
  }
}

TEST_CASE("grow shares subterms; over its limit it keeps an evenly spaced sample") {
  const auto vocabulary = make_vocabulary({"ewadd,relu"}, {"x:n,n"}, {"n=2"});
  TermPool pool(vocabulary);
  const auto ones = pool.grow(1, {0}, 100).ids;  // (ewadd ?x ?x), (relu ?x)
  REQUIRE(ones.size() == 2);
  const std::vector<TermId> usable = {0, ones[0], ones[1]};
  const Growth twos = pool.grow(2, usable, 100);
  std::vector<std::string> texts;
  for (TermId id : twos.ids) texts.push_back(pool.text(id));
  CHECK(texts == std::vector<std::string>{
                     "(ewadd ?x (ewadd ?x ?x))", "(ewadd ?x (relu ?x))", "(ewadd (ewadd ?x ?x) ?x)",
                     "(ewadd (ewadd ?x ?x) (ewadd ?x ?x))", "(ewadd (relu ?x) ?x)",
                     "(ewadd (relu ?x) (relu ?x))", "(relu (ewadd ?x ?x))", "(relu (relu ?x))"});
  CHECK_FALSE(twos.truncated());
  // Three of the eight: the 3rd, 6th and 8th (spread over both operators).
  const Growth sample = pool.grow(2, usable, 3);
  CHECK(sample.truncated());
  CHECK(sample.fitting == 8);
  std::vector<std::string> sampled;
  for (TermId id : sample.ids) sampled.push_back(pool.text(id));
  CHECK(sampled == std::vector<std::string>{texts[2], texts[5], texts[7]});
  // An argument whose subterm is not among the usable ones is refused.
  CHECK_THROWS_AS(pool.grow(3, {0, twos.ids.back()}, 100), Error);
}

TEST_CASE("with parameters, grow keeps TASO's roles; distinct arguments drop repeats") {
  auto vocabulary = make_vocabulary({"conv2d,ewadd,relu,enlarge"},
                                    {"x:1,2,4,4", "w:2,2,3,3", "u:2,2,1,1"}, {}, {"w,u"});
  CHECK(vocabulary.has_parameters());
  CHECK_FALSE(vocabulary.variables[0].parameter);
  CHECK(vocabulary.variables[1].parameter);
  auto grown_texts = [&](std::size_t ops) {
    TermPool pool(vocabulary);
    std::vector<TermId> usable = {0, 1, 2};
    std::set<std::string> texts;
    for (std::size_t n = 1; n <= ops; ++n) {
      const auto ids = pool.grow(n, usable, 1'000'000).ids;
      usable.insert(usable.end(), ids.begin(), ids.end());
      for (TermId id : ids) {
        texts.insert(pool.text(id));
        // A term is a parameter exactly when it is made of parameters only.
        const GraphTerm& t = pool.term(id);
        bool all = true;
        for (TermId a : t.args) all = all && pool.term(a).parameter;
        CHECK(t.parameter == all);
      }
    }
    return texts;
  };
  const auto roles = grown_texts(2);
  // A convolution convolves data with a parameter; enlarge pads a parameter to a parameter's size.
  CHECK(roles.count("(conv2d 1 1 0 0 ?x ?w)"));
  CHECK(roles.count("(conv2d 1 1 0 0 ?x (enlarge ?u ?w))"));
  CHECK(roles.count("(conv2d 1 1 0 0 ?x (ewadd ?w ?w))"));
  CHECK(roles.count("(conv2d 1 1 0 0 (relu ?x) ?u)"));
  CHECK_FALSE(roles.count("(conv2d 1 1 0 0 ?w ?w)"));
  CHECK_FALSE(roles.count("(conv2d 1 1 0 0 ?x ?x)"));
  CHECK_FALSE(roles.count("(conv2d 1 1 0 0 ?x (relu ?x))"));
  CHECK_FALSE(roles.count("(enlarge ?x ?w)"));
  CHECK_FALSE(roles.count("(ewadd ?x ?w)"));
  CHECK(roles.count("(ewadd ?x ?x)"));
  vocabulary.distinct_arguments = true;
  const auto distinct = grown_texts(2);
  CHECK_FALSE(distinct.count("(ewadd ?x ?x)"));
  CHECK_FALSE(distinct.count("(ewadd ?w ?w)"));
  CHECK(distinct.count("(ewadd ?w ?u)"));
  CHECK(distinct.count("(conv2d 1 1 0 0 ?x (enlarge ?u ?w))"));
  CHECK(distinct.size() < roles.size());
  CHECK_THROWS_WITH_AS(make_vocabulary({"relu"}, {"x:2"}, {}, {"w"}),
                       doctest::Contains("--weights: 'w' is not a variable of --shapes"), Error);
}
