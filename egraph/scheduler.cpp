// The backoff scheduler's bookkeeping.
#include "egraph/scheduler.hpp"

#include <algorithm>

namespace mctsat::egraph {

void BackoffScheduler::start(const std::vector<std::string>& rule_names) {
  rules_.clear();
  for (const std::string& name : rule_names) {
    const auto found = overrides_.find(name);
    rules_.push_back(RuleState{found == overrides_.end() ? defaults_ : found->second});
  }
}

bool BackoffScheduler::can_search(std::size_t iteration, std::size_t rule) {
  return iteration >= rules_.at(rule).banned_until;
}

std::size_t BackoffScheduler::search_limit(std::size_t, std::size_t rule) {
  const std::size_t t = threshold(rules_.at(rule));
  return t == std::numeric_limits<std::size_t>::max() ? t : t + 1;
}

bool BackoffScheduler::keep_matches(std::size_t iteration, std::size_t rule, std::size_t matches) {
  RuleState& state = rules_.at(rule);
  if (matches <= threshold(state)) return true;
  state.banned_until = iteration + (state.settings.ban_length << state.times_banned);
  ++state.times_banned;
  return false;
}

bool BackoffScheduler::lift_bans(std::size_t iteration) {
  const bool any_banned = std::any_of(
      rules_.begin(), rules_.end(), [&](const RuleState& s) { return s.banned_until > iteration; });
  if (!any_banned) return false;
  for (RuleState& state : rules_) state.banned_until = 0;
  return true;
}

}  // namespace mctsat::egraph
