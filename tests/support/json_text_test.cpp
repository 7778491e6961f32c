// JSON parsing errors carry file:line:col; member lookup finds the object a later error is about.
#include <doctest/doctest.h>

#include "support/json_text.hpp"

using namespace mctsat;

TEST_CASE("location_of_offset counts lines and columns from 1") {
  const std::string text = "ab\ncd\n\nef";
  CHECK(location_of_offset(text, 0, "f").to_string() == "f:1:1");
  CHECK(location_of_offset(text, 4, "f").to_string() == "f:2:2");
  CHECK(location_of_offset(text, 7, "f").to_string() == "f:4:1");
  CHECK(location_of_offset(text, 999, "f").to_string() == "f:4:3");
}

TEST_CASE("parse_json_text parses and reports syntax errors where they are") {
  CHECK(parse_json_text(R"({"a": [1, 2]})", "x.json")["a"][1] == 2);
  try {
    parse_json_text("{\n  \"a\": 1,\n  \"b\": tru\n}", "x.json");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.where().file == "x.json");
    CHECK(e.where().line == 3);
    CHECK(e.message().rfind("invalid JSON: syntax error while parsing value", 0) == 0);
    CHECK(e.message().find("invalid literal; last read: '\"b\": tru") != std::string::npos);
  }
  CHECK_THROWS_AS(parse_json_text("", "empty.json"), Error);
}

TEST_CASE("locate_json_string_member finds a key with its value") {
  const std::string text = "{\n  \"name\": \"a\",\n  \"x\": {\"name\" :  \"b\"}\n}";
  CHECK(locate_json_string_member(text, "name", "b", "f").to_string() == "f:3:9");
  CHECK(locate_json_string_member(text, "name", "a", "f").to_string() == "f:2:3");
  CHECK(locate_json_string_member(text, "name", "zz", "f").to_string() == "f");
}

TEST_CASE("a number beyond double range is an error at its position") {
  try {
    parse_json_text("{\n  \"a\": [1,\n    1e400]\n}", "big.json");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.where().to_string() == "big.json:3:5");
    CHECK(e.message().find("1e400") != std::string::npos);
    CHECK(e.message().find("[json.exception") == std::string::npos);
  }
}

TEST_CASE("read_json_fields turns nlohmann's type errors into errors naming the file") {
  const nlohmann::json doc = parse_json_text(R"({"version": "1"})", "v.json");
  try {
    read_json_fields("v.json", [&] { return doc["version"].get<int>(); });
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.where().file == "v.json");
    CHECK(e.message().find("type must be number, but is string") != std::string::npos);
    CHECK(e.message().find("[json.exception") == std::string::npos);
  }
  CHECK(read_json_fields("v.json", [&] { return doc["version"].get<std::string>(); }) == "1");
}

TEST_CASE("nesting deeper than kMaxJsonDepth is an error where it goes too deep") {
  // 200,000 nested arrays parsed, then overflowed the stack when a message showed the value.
  const std::string deep = std::string(200'000, '[') + std::string(200'000, ']');
  CHECK_THROWS_WITH_AS(parse_json_text(deep, "deep.json"),
                       doctest::Contains("deep.json:1:257: error: nested too deeply (more than "
                                         "256 levels)"),
                       Error);
  // Exactly the limit parses; brackets inside strings do not count.
  const std::string limit = std::string(256, '[') + std::string(256, ']');
  CHECK(parse_json_text(limit, "limit.json").is_array());
  CHECK(parse_json_text(R"({"a": "[[[[\"[[[[", "b": [1]})", "s.json")["b"][0] == 1);
  CHECK_FALSE(json_too_deep_at("[\"" + std::string(300, '[') + "\"]"));
  CHECK(json_too_deep_at(std::string(257, '{')) == 256);
}
