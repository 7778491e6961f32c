// The help text of every command, with one vocabulary of value labels whatever CLI11 type or
// validator an option uses: UINT (a non-negative integer: counts, seeds, thread counts), INT,
// NUMBER (a real number), TEXT, FILE, DIR, PATH or the set of choices `{a,b,c}`; CLI11's
// composite labels ("TEXT:UINT", "UINT:[0 - 18446744073709551615]", "INT:THREADS", "FLOAT") and
// the `{false}` it appends to a negated flag's name never show.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace mctsat::cli {

// The label shown for a CLI11 type name such as "TEXT:UINT" or "INT:NONNEGATIVE".
std::string value_label(const std::string& cli11_type_name);

class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_name(const CLI::Option* option, bool is_positional) const override;
  std::string make_option_opts(const CLI::Option* option) const override;
};

}  // namespace mctsat::cli
