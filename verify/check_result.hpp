// The outcome of one check of one rule: pass, fail (with a counterexample a person can read),
// unknown (the solver gave up or ran out of steps), or skipped (the check does not apply).
#pragma once

#include <chrono>
#include <string>

namespace mctsat::verify {

enum class Verdict { kPass, kFail, kUnknown, kSkipped };
const char* verdict_name(Verdict verdict);  // "pass", "fail", "unknown", "skipped"

struct CheckResult {
  Verdict verdict = Verdict::kSkipped;
  std::string detail;  // the counterexample, the reason, or a note on what was checked
  double seconds = 0;
};

// Times a check from its construction; finish() gives the result with the elapsed seconds.
class CheckClock {
 public:
  CheckResult finish(Verdict verdict, std::string detail) const {
    return {verdict, std::move(detail),
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count()};
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace mctsat::verify
