// The on-disk verification cache (see verify_cache.hpp).
#include "verify/verify_cache.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support/files.hpp"
#include "support/stable_hash.hpp"

namespace mctsat::verify {
namespace {

nlohmann::json to_json(const CheckResult& r) {
  return {{"verdict", verdict_name(r.verdict)}, {"detail", r.detail}, {"seconds", r.seconds}};
}

bool from_json(const nlohmann::json& j, CheckResult& r) {
  if (!j.is_object() || !j.contains("verdict") || !j["verdict"].is_string()) return false;
  const std::string v = j["verdict"].get<std::string>();
  for (Verdict verdict : {Verdict::kPass, Verdict::kFail, Verdict::kUnknown, Verdict::kSkipped}) {
    if (v == verdict_name(verdict)) {
      r.verdict = verdict;
      r.detail = j.value("detail", std::string());
      r.seconds = j.value("seconds", 0.0);
      return true;
    }
  }
  return false;
}

}  // namespace

std::string VerifyCache::key_of(const std::string& identity) {
  return fmt::format("{:016x}", fnv1a(identity));
}

std::optional<CachedChecks> VerifyCache::load(const std::string& key) const {
  std::ifstream in(std::filesystem::path(directory_) / (key + ".json"));
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  const auto j = nlohmann::json::parse(text.str(), nullptr, false);
  CachedChecks checks;
  if (j.is_discarded() || !j.is_object() ||
      !from_json(j.value("shape", nlohmann::json()), checks.shape) ||
      !from_json(j.value("proof", nlohmann::json()), checks.proof) ||
      !from_json(j.value("numeric", nlohmann::json()), checks.numeric))
    return std::nullopt;
  return checks;
}

std::optional<std::string> VerifyCache::unwritable() const {
  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  if (error) return error.message();
  if (!std::filesystem::is_directory(directory_, error)) return "not a directory";
  if (::access(directory_.c_str(), W_OK) != 0) return std::strerror(errno);
  return std::nullopt;
}

void VerifyCache::store(const std::string& key, const CachedChecks& checks) const {
  try {
    std::error_code ignored;
    std::filesystem::create_directories(directory_, ignored);
    const nlohmann::json j = {{"shape", to_json(checks.shape)},
                              {"proof", to_json(checks.proof)},
                              {"numeric", to_json(checks.numeric)}};
    write_file_atomically((std::filesystem::path(directory_) / (key + ".json")).string(),
                          j.dump(1));
  } catch (const std::exception&) {
    // An unwritable cache only costs time on the next run.
  }
}

}  // namespace mctsat::verify
