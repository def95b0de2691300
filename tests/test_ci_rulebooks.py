"""Where CI finds the rulebooks the rule-page copy checks read (``.ci/rulebooks``, used by
``.ci/run``): ``ASOBIBA_RULEBOOKS``, else shared/seeds beside the project, as in CI and in a clone
made beside the project; no machine's own absolute path."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.games import test_rule_page_copying

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / ".ci" / "rulebooks"


def find(project: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``.ci/rulebooks`` of ``project`` from elsewhere, without the caller's
    ASOBIBA_RULEBOOKS unless ``env`` gives one."""
    clean = {key: value for key, value in os.environ.items() if key != "ASOBIBA_RULEBOOKS"}
    return subprocess.run(
        [str(project / ".ci" / "rulebooks")],
        env={**clean, **env},
        cwd="/",
        capture_output=True,
        text=True,
        check=False,
    )


def clone_beside(tmp_path: Path, seeds: bool) -> Path:
    """A project directory with the script, beside a shared/seeds (or none)."""
    project = tmp_path / "clone"
    (project / ".ci").mkdir(parents=True)
    shutil.copy2(SCRIPT, project / ".ci" / "rulebooks")
    if seeds:
        (tmp_path / "shared" / "seeds").mkdir(parents=True)
    return project


def test_ci_names_no_machines_own_path() -> None:
    for script in ("run", "rulebooks"):
        text = (ROOT / ".ci" / script).read_text(encoding="utf-8")
        assert "/work/" not in text, f".ci/{script} names a path of one machine"
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'ASOBIBA_RULEBOOKS="$(.ci/rulebooks)"' in run and "export ASOBIBA_RULEBOOKS" in run


def test_a_clone_beside_the_project_finds_them_in_shared_seeds(tmp_path: Path) -> None:
    found = find(clone_beside(tmp_path, seeds=True))
    assert found.returncode == 0, found.stderr
    assert Path(found.stdout.strip()) == (tmp_path / "shared" / "seeds").resolve()


def test_asobiba_rulebooks_wins(tmp_path: Path) -> None:
    elsewhere = tmp_path / "books"
    elsewhere.mkdir()
    found = find(clone_beside(tmp_path, seeds=True), ASOBIBA_RULEBOOKS=str(elsewhere))
    assert found.returncode == 0, found.stderr
    assert Path(found.stdout.strip()) == elsewhere.resolve()


def test_without_them_ci_stops_and_says_where_it_looked(tmp_path: Path) -> None:
    found = find(clone_beside(tmp_path, seeds=False))
    assert found.returncode == 1 and not found.stdout
    assert "no rulebooks at ../shared/seeds" in found.stderr
    assert "ASOBIBA_RULEBOOKS" in found.stderr


def test_the_copy_checks_look_where_ci_finds_them() -> None:
    """Without ASOBIBA_RULEBOOKS the checks read shared/seeds beside the project, the place
    .ci/rulebooks gives CI."""
    seeds = test_rule_page_copying.SEEDS
    if os.environ.get("ASOBIBA_RULEBOOKS"):
        assert seeds == Path(os.environ["ASOBIBA_RULEBOOKS"])
        return
    assert seeds == ROOT.parent / "shared" / "seeds"
    if not seeds.is_dir():
        pytest.skip("no rulebooks beside this checkout")
    found = find(ROOT)
    assert Path(found.stdout.strip()) == seeds.resolve()
