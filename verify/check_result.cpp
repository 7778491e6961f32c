// Names of verdicts.
#include "verify/check_result.hpp"

namespace mctsat::verify {

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPass:
      return "pass";
    case Verdict::kFail:
      return "fail";
    case Verdict::kUnknown:
      return "unknown";
    case Verdict::kSkipped:
      return "skipped";
  }
  return "?";
}

}  // namespace mctsat::verify
