// Rule schedulers for the runner: which rules search in an iteration and with what match limit.
// `SimpleScheduler` runs every rule every iteration. `BackoffScheduler` is egg's: a rule whose
// matches exceed its threshold (match_limit << times_banned) is banned for
// ban_length << times_banned iterations and its matches are dropped; per-rule overrides allowed.
#pragma once

#include <cstddef>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace mctsat::egraph {

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  // Called once before a run with the rule names, in rule order.
  virtual void start(const std::vector<std::string>& rule_names) { (void)rule_names; }
  virtual bool can_search(std::size_t iteration, std::size_t rule) = 0;
  // The most matches worth collecting (a search may stop at limit + 1 to detect an overflow).
  virtual std::size_t search_limit(std::size_t iteration, std::size_t rule) = 0;
  // After a search found `matches`; false drops them (the rule was banned).
  virtual bool keep_matches(std::size_t iteration, std::size_t rule, std::size_t matches) = 0;
  // When an iteration changed nothing: true if the scheduler lifted bans, so the run goes on.
  virtual bool lift_bans(std::size_t iteration) {
    (void)iteration;
    return false;
  }
};

class SimpleScheduler final : public Scheduler {
 public:
  bool can_search(std::size_t, std::size_t) override { return true; }
  std::size_t search_limit(std::size_t, std::size_t) override {
    return std::numeric_limits<std::size_t>::max();
  }
  bool keep_matches(std::size_t, std::size_t, std::size_t) override { return true; }
};

struct BackoffSettings {
  std::size_t match_limit = 1000;
  std::size_t ban_length = 5;
};

class BackoffScheduler final : public Scheduler {
 public:
  using RuleSettings = BackoffSettings;
  BackoffScheduler() = default;
  explicit BackoffScheduler(RuleSettings defaults) : defaults_(defaults) {}
  // Overrides the settings of one rule by name (before the run starts).
  void set_rule(const std::string& name, RuleSettings settings) { overrides_[name] = settings; }

  void start(const std::vector<std::string>& rule_names) override;
  bool can_search(std::size_t iteration, std::size_t rule) override;
  std::size_t search_limit(std::size_t iteration, std::size_t rule) override;
  bool keep_matches(std::size_t iteration, std::size_t rule, std::size_t matches) override;
  bool lift_bans(std::size_t iteration) override;

  std::size_t times_banned(std::size_t rule) const { return rules_.at(rule).times_banned; }
  std::size_t banned_until(std::size_t rule) const { return rules_.at(rule).banned_until; }

 private:
  struct RuleState {
    RuleSettings settings;
    std::size_t times_banned = 0;
    std::size_t banned_until = 0;  // may search again from this iteration on
  };
  std::size_t threshold(const RuleState& state) const {
    return state.settings.match_limit << state.times_banned;
  }

  RuleSettings defaults_;
  std::map<std::string, RuleSettings> overrides_;
  std::vector<RuleState> rules_;
};

}  // namespace mctsat::egraph
