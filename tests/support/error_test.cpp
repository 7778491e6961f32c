// Tests of mctsat::Error: the `file:line:col: error: message` formatting and located().
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "support/error.hpp"

using mctsat::Error;
using mctsat::SourceLocation;

TEST_CASE("SourceLocation::to_string says as much as is known") {
  CHECK(SourceLocation::at("rules/a.rules", 12, 7).to_string() == "rules/a.rules:12:7");
  CHECK(SourceLocation::at("rules/a.rules", 12).to_string() == "rules/a.rules:12");
  CHECK(SourceLocation::at("model.json").to_string() == "model.json");
  CHECK(SourceLocation::at_node("conv1").to_string() == "node 'conv1'");
  CHECK(SourceLocation{}.to_string().empty());

  SourceLocation both = SourceLocation::at("model.json", 3, 14);
  both.node = "relu_2";
  CHECK(both.to_string() == "model.json:3:14 (node 'relu_2')");

  // A column without a line, or a line without a file, is not printed.
  CHECK(SourceLocation::at("f.rules", 0, 9).to_string() == "f.rules");
  SourceLocation no_file;
  no_file.line = 4;
  no_file.column = 2;
  CHECK(no_file.to_string().empty());
}

TEST_CASE("Error formats as file:line:col: error: message") {
  const Error full("unknown operator 'conv'", SourceLocation::at("rules/a.rules", 12, 7));
  CHECK(std::string(full.what()) == "rules/a.rules:12:7: error: unknown operator 'conv'");
  CHECK(full.message() == "unknown operator 'conv'");
  CHECK(full.where().file == "rules/a.rules");
  CHECK(full.where().line == 12);
  CHECK(full.where().column == 7);
  CHECK(full.where().node.empty());

  const Error line_only("bad", SourceLocation::at("x.json", 5));
  CHECK(std::string(line_only.what()) == "x.json:5: error: bad");

  const Error file_only("cannot open", SourceLocation::at("missing.onnx"));
  CHECK(std::string(file_only.what()) == "missing.onnx: error: cannot open");

  const Error node_only("shapes differ", SourceLocation::at_node("matmul_3"));
  CHECK(std::string(node_only.what()) == "node 'matmul_3': error: shapes differ");
  CHECK(node_only.where().node == "matmul_3");
  CHECK(node_only.where().file.empty());

  SourceLocation both = SourceLocation::at("m.json", 2, 5);
  both.node = "relu_1";
  CHECK(std::string(Error("no input", both).what()) ==
        "m.json:2:5 (node 'relu_1'): error: no input");

  const Error nowhere("no rules given");
  CHECK(std::string(nowhere.what()) == "error: no rules given");
  CHECK(nowhere.message() == "no rules given");
}

TEST_CASE("Error is a std::runtime_error") {
  bool caught = false;
  try {
    throw Error("boom", SourceLocation::at_node("n"));
  } catch (const std::runtime_error& e) {
    caught = true;
    CHECK(std::string(e.what()) == "node 'n': error: boom");
  }
  CHECK(caught);
}

TEST_CASE("located() keeps what the inner error knows and fills in the rest") {
  SUBCASE("a node-only error gets the file and position") {
    const Error inner("bad perm", SourceLocation::at_node("transpose_0"));
    const Error outer = inner.located(SourceLocation::at("model.json", 40, 3));
    CHECK(outer.message() == "bad perm");
    CHECK(outer.where().file == "model.json");
    CHECK(outer.where().line == 40);
    CHECK(outer.where().column == 3);
    CHECK(outer.where().node == "transpose_0");
    CHECK(std::string(outer.what()) == "model.json:40:3 (node 'transpose_0'): error: bad perm");
  }
  SUBCASE("an inner file and position win over the outer ones") {
    const Error inner("unexpected token", SourceLocation::at("inner.rules", 2, 9));
    SourceLocation outer_where = SourceLocation::at("outer.rules", 100, 1);
    outer_where.node = "rule-7";
    const Error outer = inner.located(outer_where);
    CHECK(outer.where().file == "inner.rules");
    CHECK(outer.where().line == 2);
    CHECK(outer.where().column == 9);
    CHECK(outer.where().node == "rule-7");  // missing inside, filled from outside
    CHECK(std::string(outer.what()) == "inner.rules:2:9 (node 'rule-7'): error: unexpected token");
  }
  SUBCASE("an inner node wins over the outer node") {
    const Error inner("x", SourceLocation::at_node("inner"));
    SourceLocation outer_where = SourceLocation::at("g.json");
    outer_where.node = "outer";
    const Error outer = inner.located(outer_where);
    CHECK(outer.where().node == "inner");
    CHECK(outer.where().file == "g.json");
    CHECK(std::string(outer.what()) == "g.json (node 'inner'): error: x");
  }
  SUBCASE("an error without a location takes the outer one whole") {
    const Error outer = Error("empty").located(SourceLocation::at("a.rules", 1, 1));
    CHECK(std::string(outer.what()) == "a.rules:1:1: error: empty");
  }
  SUBCASE("an empty outer location changes nothing") {
    const Error inner("same", SourceLocation::at("f", 3, 4));
    const Error outer = inner.located(SourceLocation{});
    CHECK(std::string(outer.what()) == "f:3:4: error: same");
  }
}
