"""The README's Python block and docs/python.md's blocks run; examples/python reproduces the
README's results table."""

import os
import re
import subprocess
import sys

import pytest


def python_blocks(text):
    return re.findall(r"<!-- python -->\n```python\n(.*?)```", text, re.S)


@pytest.mark.parametrize("page", ["README.md", "docs/python.md"])
def test_marked_python_blocks_run(root, page, monkeypatch):
    blocks = python_blocks((root / page).read_text())
    assert blocks, f"{page} has no <!-- python --> block"
    monkeypatch.chdir(root)
    for block in blocks:
        exec(compile(block, page, "exec"), {})


def readme_table(root):
    text = (root / "README.md").read_text()
    rows = re.findall(r"^\| ([A-Za-z0-9-]+|mean) \|((?: \**[0-9.]+\**(?: ± [0-9.]+)? \|){4})$", text,
                      re.M)
    return {name: [float(re.sub(r"[*]| ± .*", "", c).strip()) for c in cells.split("|")[:-1]]
            for name, cells in rows}


def test_the_example_reproduces_the_readme_table(root):
    expected = readme_table(root)
    assert len(expected) == 10
    result = subprocess.run(
        [sys.executable, str(root / "examples/python/paper_loop_table.py"), "--rerun", "bert",
         "squeezenet"], capture_output=True, text=True, env={**os.environ}, check=True)
    printed = {}
    for line in result.stdout.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 5 and re.fullmatch(r"[0-9.]+", cells[1]):
            printed[cells[0]] = [float(c) for c in cells[1:]]
    assert printed.keys() == expected.keys()
    for name, values in expected.items():
        assert printed[name] == pytest.approx(values, abs=0.011), name
    assert "rerun bert: recorded 17.23%, now 17.23%" in result.stdout
