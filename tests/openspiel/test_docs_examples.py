"""Every Python example in docs/OPENSPIEL.md runs as written (each in a fresh namespace)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "OPENSPIEL.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def test_the_page_has_its_examples() -> None:
    assert len(EXAMPLES) == 5


@pytest.mark.parametrize("code", EXAMPLES, ids=[f"example{i}" for i in range(len(EXAMPLES))])
def test_example_runs(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(code, str(DOC), "exec"), {"__name__": "docs_example"})
    assert capsys.readouterr().out.strip(), "an example prints what it shows"


def test_the_loading_example_prints_what_the_page_says(capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(EXAMPLES[0], str(DOC), "exec"), {"__name__": "docs_example"})
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "0 ['draw pile 0', 'draw pile 1', 'draw pile 2']"
