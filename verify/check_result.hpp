// The outcome of one check of one rule: pass, fail (with a counterexample a person can read),
// unknown (the solver gave up or timed out), or skipped (the check does not apply).
#pragma once

#include <string>

namespace mctsat::verify {

enum class Verdict { kPass, kFail, kUnknown, kSkipped };
const char* verdict_name(Verdict verdict);  // "pass", "fail", "unknown", "skipped"

struct CheckResult {
  Verdict verdict = Verdict::kSkipped;
  std::string detail;  // the counterexample, the reason, or a note on what was checked
  double seconds = 0;
};

}  // namespace mctsat::verify
