// `mctsat verify --write-levels`: writes each verified rule's level into its file as the
// `@verified(LEVEL)` annotation before the rule (replacing one already there), so that a rule
// library states how each rule was shown sound (dsl/verification_level.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dsl/verification_level.hpp"
#include "support/error.hpp"

namespace mctsat::cli {

// One rule declaration and the level its checks show (the weaker of a `<=>` rule's two
// directions; unset when a direction shows none).
struct DeclaredLevel {
  SourceLocation where;  // the `rule` keyword
  std::optional<dsl::VerificationLevel> level;
};

// Rewrites the files of `declarations` (each file once, atomically): before each declaration with
// a level, its `@verified(LEVEL)`; a declaration without a level loses the one it had. Lines
// other than those annotations are kept byte for byte. Returns how many annotations changed.
// Throws Error when a file cannot be read or written, or a location is not a `rule` keyword.
std::size_t write_verification_levels(const std::vector<DeclaredLevel>& declarations);

}  // namespace mctsat::cli
