"""Rules: load, check and format rule text and files; verify with per-check results."""

import mctsat
import pytest

SOUND_AND_UNSOUND = """ruleset mine
rule relu-twice: (relu (relu ?x)) => (relu ?x)
rule add-is-mul: (ewadd ?x ?y) => (ewmul ?x ?y)
"""


def test_the_shipped_library_loads():
    rules = mctsat.load_rules()
    assert len(rules) == len(rules.rules) >= 139
    assert len(rules.axioms) == 29
    assert {"name", "ruleset", "tags", "file", "line", "multi_pattern", "conditional"} <= set(
        rules.rules[0])


def test_rule_libraries_by_name():
    both = mctsat.load_rules(["taso", "extended"])
    assert len(both.rules) > len(mctsat.load_rules().rules) + 1000
    rules = [r for r in mctsat.verify("extended", only=["synthesized-matrix-3-001"])
             if r.kind == "rule"]
    assert [r.name for r in rules] == ["synthesized-matrix-3-001"] and not rules[0].failed
    with pytest.raises(mctsat.Error, match="no rule file, directory or rule library named 'extnded'"):
        mctsat.load_rules(["extnded"])


def test_parse_and_format(tmp_path):
    rules = mctsat.parse_rules(SOUND_AND_UNSOUND, "mine.rules")
    assert [r["name"] for r in rules.rules] == ["relu-twice", "add-is-mul"]
    formatted = mctsat.format_rules("ruleset mine\nrule   r:(relu   (relu ?x))=>(relu ?x)\n")
    assert mctsat.format_rules(formatted) == formatted
    path = tmp_path / "mine.rules"
    path.write_text(SOUND_AND_UNSOUND)
    assert mctsat.format_rule_file(str(path)) == mctsat.format_rules(SOUND_AND_UNSOUND)


def test_rule_errors_carry_the_cli_message(cli, tmp_path):
    path = tmp_path / "broken.rules"
    path.write_text("ruleset mine\nrule r: (relu ?x) => (nosuchop ?x)\n")
    with pytest.raises(mctsat.Error) as error:
        mctsat.load_rules(str(path))
    assert f"{path}:2:" in str(error.value)
    assert cli("rules", "check", path, check=False).stderr.strip() == f"mctsat: {error.value}"


def test_verify_reports_each_check(tmp_path):
    path = tmp_path / "mine.rules"
    path.write_text(SOUND_AND_UNSOUND)
    results = {r.name: r for r in mctsat.verify(str(path), z3_rlimit=2_000_000)}
    sound, unsound = results["relu-twice"], results["add-is-mul"]
    assert not sound.failed and sound.numeric.verdict == "pass"
    assert unsound.failed and unsound.numeric.verdict == "fail"
    assert unsound.numeric.detail  # the counterexample
    assert unsound.kind == "rule" and unsound.line == 3 and unsound.seconds >= 0
    with pytest.raises(mctsat.Error, match="no rule or axiom is named 'nope'"):
        mctsat.verify(str(path), only=["nope"])
