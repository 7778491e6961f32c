// How a rule was shown sound, as its `@verified(LEVEL)` annotation states it and as `mctsat verify`
// finds it: values proved equal from the axioms; shapes proved by Z3 with values only tested on
// samples; or samples only. The levels are ordered (a `<=>` rule's declaration states the weaker
// of its two directions); a rule's claim is met when the checks show exactly the level claimed.
#pragma once

#include <optional>

#include "support/enum_names.hpp"

namespace mctsat::dsl {

enum class VerificationLevel {
  kSamples,  // numeric samples agree; neither the shapes nor the values proved
  kShapes,   // Z3 proves the shapes agree; the values agree on numeric samples
  kAxioms,   // Z3 proves the shapes agree and the values equal from the axioms
};

inline constexpr EnumNames<VerificationLevel, 3> kVerificationLevelNames{{
    {VerificationLevel::kSamples, "samples"},
    {VerificationLevel::kShapes, "shapes"},
    {VerificationLevel::kAxioms, "axioms"},
}};

}  // namespace mctsat::dsl
