// "Did you mean" for a mistyped name: the closest of a list of known names by edit distance
// (insertions, deletions, substitutions and swaps of two neighbouring characters count one each),
// when it is close enough to be a plausible typo. Used for commands, flags, operators, models.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mctsat {

// The optimal string alignment distance between `a` and `b`. O(|a| |b|) time and memory.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word` (ties: the first in `candidates`), if its distance is at most a
// third of the longer word's length (at least 1, at most 3) or `word` is a prefix of it; nullopt
// otherwise, and for an exact match.
std::optional<std::string> closest_name(std::string_view word,
                                        const std::vector<std::string>& candidates);

// " (did you mean 'NAME'?)" for closest_name(word, candidates), or "" when there is none.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace mctsat
