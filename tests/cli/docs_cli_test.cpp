// The documentation stays true: README.md stays short, docs/dsl.md's operator table is what
// `mctsat ops --markdown` prints, docs/cli.md names every command and flag of `--help` (with its
// default), every command README.md and docs/ mark runnable runs, the README's tour writes nothing
// into the checkout, the rule files they show are valid (tests/cli/doc_commands.hpp), and their
// relative links lead somewhere.
#include <cctype>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"
#include "tests/cli/doc_commands.hpp"

namespace fs = std::filesystem;

namespace {

fs::path source(const std::string& relative) {
  return fs::path(MCTSAT_SOURCE_DIR) / relative;
}

// The lines after the line holding `begin`, up to `end` (exclusive) or, when `end_optional`, to the
// end of the text; "" when `begin` (or a required `end`) is absent.
std::string between(const std::string& text, const std::string& begin, const std::string& end,
                    bool end_optional = false) {
  const auto start = text.find(begin);
  if (start == std::string::npos) return "";
  const auto from = text.find('\n', start) + 1;
  const auto to = text.find(end, from);
  if (to == std::string::npos) return end_optional ? text.substr(from) : "";
  return text.substr(from, to - from);
}

// The subcommand names `help` lists under "Subcommands:" (aliases such as "zoo, models" give
// their first name).
std::vector<std::string> subcommands(const std::string& help) {
  std::vector<std::string> names;
  const auto at = help.find("Subcommands:\n");
  if (at == std::string::npos) return names;
  std::istringstream in(help.substr(at + 13));
  std::string line;
  while (std::getline(in, line) && line.rfind("  ", 0) == 0) {
    std::string name = line.substr(2, line.find_first_of(" ,", 2) - 2);
    names.push_back(name);
  }
  return names;
}

// The long flags `help` lists (--name; both names of --x,--no-x), without --help and --help-all.
std::set<std::string> long_flags(const std::string& help) {
  std::set<std::string> flags;
  static const std::regex flag(R"((^|[ ,!])(--[a-z][a-z0-9-]*))");
  std::istringstream in(help);
  std::string line;
  while (std::getline(in, line)) {
    // An option line starts with two spaces and then '-'; its description follows later.
    if (line.rfind("  -", 0) != 0) continue;
    const std::string head = line.substr(0, line.find("  ", 2));
    for (auto it = std::sregex_iterator(head.begin(), head.end(), flag);
         it != std::sregex_iterator(); ++it)
      flags.insert((*it)[2]);
  }
  flags.erase("--help");
  flags.erase("--help-all");
  return flags;
}

// The defaults `help` shows (`--name TYPE=VALUE`, where TYPE has no double space, so that the
// description is never read as a type), by long flag; lists and flags are left out.
std::map<std::string, std::string> defaults(const std::string& help) {
  std::map<std::string, std::string> out;
  static const std::regex option(
      R"(^  (?:-\w,)?(--[a-z][a-z0-9-]*) (?:[^ =]| [^ =])*=([^ \[{][^ ]*))");
  std::istringstream in(help);
  std::string line;
  std::smatch m;
  while (std::getline(in, line))
    if (std::regex_search(line, m, option)) out[m[1]] = m[2];
  return out;
}

// Whether a table cell states `value` (the same text, or the same number: 1e-6 and 1e-06).
bool same_value(std::string cell, const std::string& value) {
  std::erase(cell, '`');
  cell = cell.substr(0, cell.find(' '));
  if (cell == value) return true;
  try {
    std::size_t used_cell = 0, used_value = 0;
    const double a = std::stod(cell, &used_cell), b = std::stod(value, &used_value);
    return used_cell == cell.size() && used_value == value.size() && a == b;
  } catch (const std::exception&) {
    return false;
  }
}

// The second cell of the table row of `section` that starts with "| `flag`", or nullopt.
std::optional<std::string> default_cell(const std::string& section, const std::string& flag) {
  const auto at = section.find("\n| `" + flag + "` |");
  if (at == std::string::npos) return std::nullopt;
  const auto end = section.find('\n', at + 1);
  std::string row = section.substr(at + 1, end - at - 1);
  std::vector<std::string> cells;
  for (std::size_t from = 1, bar; (bar = row.find(" |", from)) != std::string::npos; from = bar + 2)
    cells.push_back(row.substr(from + 1, bar - from - 1));
  if (cells.size() < 3) return std::nullopt;  // a table without a default column
  return cells[1];
}

// GitHub's anchor of a Markdown heading: lower case, spaces to '-', other punctuation dropped.
std::string anchor(const std::string& heading) {
  std::string out;
  for (const char c : heading) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (c == ' ' || c == '-')
      out += '-';
  }
  return out;
}

std::set<std::string> anchors(const fs::path& page) {
  std::set<std::string> out;
  std::istringstream in(read_text(page));
  bool fenced = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("```", 0) == 0) fenced = !fenced;
    if (!fenced && line.rfind('#', 0) == 0) out.insert(anchor(line.substr(line.find(' ') + 1)));
  }
  return out;
}

}  // namespace

TEST_CASE("the relative links of README.md, docs/ and examples/ lead to files and headings") {
  static const std::regex link(R"(\]\(([^)#\s]*)(#[^)\s]*)?\))");
  std::size_t checked = 0;
  for (const char* page :
       {"README.md", "docs/cli.md", "docs/dsl.md", "docs/results.md", "docs/architecture.md",
        "docs/models.md", "docs/extending.md", "docs/limits.md", "docs/python.md",
        "examples/README.md", "bench/results/README.md"}) {
    const std::string text = read_text(source(page));
    for (auto it = std::sregex_iterator(text.begin(), text.end(), link);
         it != std::sregex_iterator(); ++it) {
      const std::string target = (*it)[1], fragment = (*it)[2];
      if (target.rfind("http", 0) == 0) continue;
      const fs::path file =
          target.empty() ? source(page) : (source(page).parent_path() / target).lexically_normal();
      const std::string relative = fs::relative(file, MCTSAT_SOURCE_DIR).string();
      INFO(std::string(page) << ": " << (*it)[0].str());
      CHECK(fs::exists(file));
      if (!fragment.empty() && fs::exists(file))
        CHECK(anchors(file).count(fragment.substr(1)) == 1);
      ++checked;
    }
  }
  CHECK(checked >= 20);
}

TEST_CASE("bench/results/README.md indexes every study and topic of bench/results") {
  const std::string index = read_text(source("bench/results/README.md"));
  std::size_t entries = 0;
  for (const auto& entry : fs::directory_iterator(source("bench/results"))) {
    const std::string name = entry.path().filename().string();
    if (name == "README.md") continue;
    ++entries;
    CHECK_MESSAGE(index.find("](" + name) != std::string::npos,
                  "bench/results/README.md has no link to " << name << ": add a line for it");
  }
  CHECK(entries >= 40);
}

TEST_CASE("docs/results.md's demo is the README's: the same command, the same speedup") {
  // The demo block of each page: the output of `make demo` that follows its first "make demo".
  const auto demo_speedup = [](const std::string& page) {
    const std::string text = read_text(source(page));
    static const std::regex speedup(R"(optimized cost +[0-9.]+ ms +speedup ([-+][0-9.]+%))");
    std::smatch m;
    const std::string after = text.substr(std::min(text.find("make demo"), text.size()));
    return std::regex_search(after, m, speedup) ? m[1].str() : std::string("none");
  };
  CHECK(demo_speedup("README.md") != "none");
  CHECK(demo_speedup("docs/results.md") == demo_speedup("README.md"));
  // Said once: results.md's demo section does not repeat its opening paragraph.
  const std::string results = read_text(source("docs/results.md"));
  const std::string section = between(results, "## The demo", "## ", false);
  CHECK(section.find("`make demo`") == section.rfind("`make demo`"));
}

TEST_CASE("README.md stays a short page for a newcomer (under 250 lines)") {
  const std::string text = read_text(source("README.md"));
  const auto lines = std::count(text.begin(), text.end(), '\n');
  CHECK_MESSAGE(lines <= 250, "README.md has " << lines << " lines: move details to docs/");
  // The two commands of the quick start.
  CHECK(text.find("make demo") != std::string::npos);
  CHECK(text.find("make test") != std::string::npos);
}

namespace {

// The text of `page` between the markers "<!-- mctsat ARGUMENTS: begin -->" and "... end -->" is
// what `mctsat ARGUMENTS` prints.
void check_generated_table(const std::string& page, const std::string& arguments) {
  const CliResult r = run_mctsat(arguments);
  REQUIRE_MESSAGE(r.status == 0, r.output);
  const std::string table =
      between(read_text(source(page)), "<!-- mctsat " + arguments + ": begin -->",
              "<!-- mctsat " + arguments + ": end -->");
  CHECK_MESSAGE(table == r.output,
                "regenerate the table in " << page << " with `mctsat " << arguments << "`");
}

}  // namespace

TEST_CASE("docs/dsl.md's operator table is what `mctsat ops --markdown` prints") {
  check_generated_table("docs/dsl.md", "ops --markdown");
}

TEST_CASE("docs/cli.md's option table is what `mctsat options --markdown` prints") {
  check_generated_table("docs/cli.md", "options --markdown");
}

TEST_CASE("docs/cli.md names every command and every flag that --help lists") {
  const std::string doc = read_text(source("docs/cli.md"));
  const CliResult top = run_mctsat("--help");
  REQUIRE(top.status == 0);
  std::vector<std::string> commands = subcommands(top.output);
  REQUIRE(commands.size() >= 10);
  for (std::size_t i = 0; i < commands.size(); ++i) {  // grows with nested subcommands
    const std::string command = commands[i];
    const CliResult help = run_mctsat(command + " --help");
    REQUIRE_MESSAGE(help.status == 0, command << ": " << help.output);
    const std::string heading = "## `mctsat " + command + "`";
    CHECK_MESSAGE(doc.find(heading + "\n") != std::string::npos,
                  "docs/cli.md has no section " << heading);
    const std::string section = between(doc, heading + "\n", "\n## ", true);
    for (const std::string& flag : long_flags(help.output))
      CHECK_MESSAGE(section.find(flag) != std::string::npos, "docs/cli.md's section on `mctsat "
                                                                 << command << "` does not mention "
                                                                 << flag);
    // Where the section's table has a default column, it states --help's default.
    for (const auto& [flag, value] : defaults(help.output))
      if (const auto cell = default_cell(section, flag))
        CHECK_MESSAGE(same_value(*cell, value), "docs/cli.md gives `mctsat "
                                                    << command << " " << flag << "` the default "
                                                    << *cell << "; --help says " << value);
    for (const std::string& sub : subcommands(help.output)) commands.push_back(command + " " + sub);
  }
}

TEST_CASE("docs/cli.md names every study parameter of bench/configs/schema.json") {
  const nlohmann::json schema =
      nlohmann::json::parse(read_text(source("bench/configs/schema.json")));
  const std::string doc = read_text(source("docs/cli.md"));
  const std::string section = between(doc, "## `mctsat bench`\n", "\n## ");
  std::size_t checked = 0;
  for (const auto& [name, spec] : schema["$defs"]["parameters"]["properties"].items()) {
    if (!spec.contains("properties")) {
      CHECK_MESSAGE(section.find("`" + name + "`") != std::string::npos, name);
      ++checked;
      continue;
    }
    for (const auto& [inner, ignored] : spec["properties"].items()) {
      CHECK_MESSAGE(section.find("`" + name + "." + inner + "`") != std::string::npos,
                    name << "." << inner);
      ++checked;
    }
  }
  CHECK(checked >= 30);
}

namespace {

// Every file under the checkout with its modification time, without .git, the build trees and
// Python's byte-code caches.
std::map<std::string, fs::file_time_type> checkout_files() {
  std::map<std::string, fs::file_time_type> files;
  const fs::path root = fs::canonical(MCTSAT_SOURCE_DIR);
  std::error_code ec;
  const fs::path build = fs::weakly_canonical(MCTSAT_BUILD_DIR, ec);
  for (auto it = fs::recursive_directory_iterator(root, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path& path = it->path();
    const std::string name = path.filename().string();
    if (it->is_directory() && (name == ".git" || name == "__pycache__" || path == build ||
                               (path.parent_path() == root && name.rfind("build", 0) == 0))) {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_directory())
      files[fs::relative(path, root).string()] = fs::last_write_time(path, ec);
  }
  return files;
}

}  // namespace

TEST_CASE("the README's tour runs from the checkout's root and writes nothing into it") {
  // A reader who built mctsat pastes the tour in the checkout; it moves to a scratch directory
  // and copies the examples there (`mctsat examples`), so `git status` stays clean.
  const auto before = checkout_files();
  Scratch scratch("mctsat-readme-tour");
  DocSession session(MCTSAT_SOURCE_DIR, scratch.dir);
  const auto commands = runnable_commands(source("README.md"));
  CHECK(check_commands("README.md", commands, session) >= 10);
  CHECK(session.cwd().string().rfind(scratch.dir.string(), 0) == 0);  // the tour left the checkout
  const auto after = checkout_files();
  for (const auto& [file, time] : after) {
    const auto was = before.find(file);
    CHECK_MESSAGE(was != before.end(), "the README's tour wrote " << file << " into the checkout");
    if (was != before.end())
      CHECK_MESSAGE(was->second == time, "the README's tour changed " << file);
  }
}

TEST_CASE("the runnable commands of docs/ succeed") {
  std::size_t total = 0;
  for (const char* page : {"docs/cli.md", "docs/dsl.md", "docs/results.md", "docs/architecture.md",
                           "docs/models.md"}) {
    if (!fs::exists(source(page))) continue;
    total += check_page_commands(page);
  }
  CHECK(total >= 10);
}

TEST_CASE("the rule files README.md and docs/ show pass `mctsat rules check`") {
  CHECK(check_page_rule_files("README.md") == 1);
  CHECK(check_page_rule_files("docs/dsl.md") == 1);
  CHECK(check_page_rule_files("docs/extending.md") == 1);
}
