// The commands a Markdown page shows as runnable, for the tests that keep README.md, docs/ and
// examples/ true. A ```sh block preceded by the line `<!-- runnable -->` holds commands that must
// succeed; `<!-- runnable: fails -->` marks commands that must fail with an error message (e.g. a
// rule file with a mistake). Each non-blank line of such a block is one command (a trailing `\`
// joins lines; `#` starts a comment, as in sh). Commands run `mctsat` or `cd`; the tests run them
// in order in one shell session (a `cd` carries over) with the built executable first on PATH, by
// default starting in a scratch directory that links the repository's data folders (examples,
// rules, bench, tests, docs), so that files they write stay there, with TMPDIR and
// XDG_CACHE_HOME there too (the verifier's and the measured cost model's caches).
// A ``` block preceded by `<!-- rule file -->` is a rule file that must pass `mctsat rules check`
// (next to copies of examples/rules/, which it may include).
#pragma once

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "tests/cli/cli_runner.hpp"

struct DocCommand {
  std::string text;    // the command as shown
  int line = 0;        // 1-based line in the page
  bool fails = false;  // marked `runnable: fails`
};

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path.string());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::vector<DocCommand> runnable_commands(const std::filesystem::path& page) {
  std::istringstream in(read_text(page));
  std::vector<DocCommand> commands;
  std::string line, pending_marker;
  int number = 0;
  bool in_block = false, runnable = false, fails = false;
  DocCommand current;
  while (std::getline(in, line)) {
    ++number;
    if (!in_block) {
      if (line.rfind("```", 0) == 0) {
        in_block = true;
        runnable = !pending_marker.empty() && line == "```sh";
        fails = pending_marker == "<!-- runnable: fails -->";
        const bool marker_fits = pending_marker.empty() || runnable;
        CHECK_MESSAGE(marker_fits, page.string()
                                       << ":" << number << ": a runnable block must be ```sh");
      }
      pending_marker =
          line == "<!-- runnable -->" || line == "<!-- runnable: fails -->" ? line : "";
      continue;
    }
    if (line.rfind("```", 0) == 0) {
      in_block = false;
      continue;
    }
    if (!runnable) continue;
    const bool continued = !line.empty() && line.back() == '\\';
    if (current.text.empty()) current.line = number;
    current.text += continued ? line.substr(0, line.size() - 1) : line;
    if (continued) continue;
    const auto first = current.text.find_first_not_of(' ');
    if (first != std::string::npos && current.text[first] != '#') {
      current.fails = fails;
      commands.push_back(current);
    }
    current = {};
  }
  return commands;
}

// A scratch directory for running a page's commands: links to the repository's data folders.
struct DocScratch : Scratch {
  DocScratch() : Scratch("mctsat-doc-commands") {
    for (const char* folder : {"examples", "rules", "bench", "tests", "docs"})
      std::filesystem::create_directory_symlink(std::filesystem::path(MCTSAT_SOURCE_DIR) / folder,
                                                dir / folder);
  }
};

// `text` as one single-quoted sh word.
inline std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A reader's shell session: commands run one after another with `bin_dir`'s mctsat first on PATH,
// starting in `start`; a `cd` carries over to the next command, as in a terminal. Whatever the
// session writes outside its working directories stays in `scratch`: TMPDIR (so that
// `cd "$(mktemp -d)"` lands there) and XDG_CACHE_HOME (the verifier's and the measured cost
// model's caches) point into it.
class DocSession {
 public:
  DocSession(std::filesystem::path start, const std::filesystem::path& scratch,
             std::string bin_dir = std::filesystem::path(MCTSAT_BINARY).parent_path().string())
      : cwd_(std::move(start)), scratch_(scratch), bin_dir_(std::move(bin_dir)) {
    std::filesystem::create_directories(scratch_ / "tmp");
  }

  CliResult run(const std::string& command) {
    const std::filesystem::path cwd_file = scratch_ / "session-cwd";
    const std::string script = command + "\nmctsat_status=$?; pwd > " +
                               shell_quoted(cwd_file.string()) + "; exit $mctsat_status";
    const std::string shell =
        "cd " + shell_quoted(cwd_.string()) + " && PATH=" + shell_quoted(bin_dir_) +
        ":\"$PATH\" XDG_CACHE_HOME=" + shell_quoted((scratch_ / "cache").string()) +
        " TMPDIR=" + shell_quoted((scratch_ / "tmp").string()) + " sh -c " + shell_quoted(script);
    const CliResult result = run_shell(shell);
    std::ifstream in(cwd_file);
    std::string line;
    if (std::getline(in, line) && !line.empty()) cwd_ = line;
    return result;
  }
  const std::filesystem::path& cwd() const { return cwd_; }

 private:
  std::filesystem::path cwd_, scratch_;
  std::string bin_dir_;
};

// Runs one command in `dir` with the built mctsat first on PATH; returns exit status and output.
inline CliResult run_doc_command(const std::filesystem::path& dir, const std::string& command) {
  return DocSession(dir, dir).run(command);
}

// Runs `commands` in order in one session and checks each one's exit status (and, for commands
// marked to fail, that they print an error). Returns how many ran.
inline std::size_t check_commands(const std::string& page, const std::vector<DocCommand>& commands,
                                  DocSession& session) {
  for (const DocCommand& c : commands) {
    INFO(page << ":" << c.line << ": " << c.text);
    const bool moves = c.text.rfind("cd ", 0) == 0;  // a reader's `cd` to a scratch directory
    REQUIRE_MESSAGE((moves || c.text.find("mctsat ") != std::string::npos),
                    "runnable commands run mctsat or change directory");
    const CliResult r = session.run(c.text);
    if (c.fails) {
      CHECK_MESSAGE(r.status != 0, r.output);
      CHECK_MESSAGE(r.output.find("error") != std::string::npos, r.output);
    } else {
      CHECK_MESSAGE(r.status == 0, r.output);
    }
  }
  return commands.size();
}

// Runs every runnable command of `page` (relative to the repository) in order, in one session
// that starts in a scratch directory linking the repository's data folders. Returns how many ran.
inline std::size_t check_page_commands(const std::string& page) {
  const auto commands = runnable_commands(std::filesystem::path(MCTSAT_SOURCE_DIR) / page);
  DocScratch scratch;
  DocSession session(scratch.dir, scratch.dir);
  return check_commands(page, commands, session);
}

// The blocks of `page` marked `<!-- rule file -->`, each with its first line number.
inline std::vector<std::pair<int, std::string>> rule_file_blocks(
    const std::filesystem::path& page) {
  std::istringstream in(read_text(page));
  std::vector<std::pair<int, std::string>> blocks;
  std::string line, previous;
  int number = 0;
  bool in_block = false;
  while (std::getline(in, line)) {
    ++number;
    if (in_block) {
      if (line.rfind("```", 0) == 0)
        in_block = false;
      else
        blocks.back().second += line + "\n";
    } else if (line.rfind("```", 0) == 0 && previous == "<!-- rule file -->") {
      in_block = true;
      blocks.emplace_back(number + 1, "");
    }
    previous = line;
  }
  return blocks;
}

// Checks every `<!-- rule file -->` block of `page` with `mctsat rules check`. Returns how many.
inline std::size_t check_page_rule_files(const std::string& page) {
  const auto blocks = rule_file_blocks(std::filesystem::path(MCTSAT_SOURCE_DIR) / page);
  Scratch scratch("mctsat-doc-rules");
  for (const auto& entry : std::filesystem::directory_iterator(
           std::filesystem::path(MCTSAT_SOURCE_DIR) / "examples/rules"))
    std::filesystem::copy_file(entry.path(), scratch.dir / entry.path().filename());
  for (const auto& [line, text] : blocks) {
    INFO(page << ":" << line);
    const std::string file = scratch.file("block.rules");
    std::ofstream(file) << text;
    const CliResult r = run_doc_command(scratch.dir, "mctsat rules check block.rules");
    CHECK_MESSAGE(r.status == 0, r.output);
  }
  return blocks.size();
}
