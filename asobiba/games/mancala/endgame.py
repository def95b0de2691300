"""The endgame table of default Kalah's pits: the exact value of every position with at most
``STONES`` stones left in the pits, built once by the C kernel and cached in the data directory.

A position's value there is the mover's best future store gain over the opponent, which depends
on the pits alone (not the stores, not the stones a pit started with), so one table serves every
6-pit Kalah game with the standard capture and leftovers counted. The searches and the solver
return its value as soon as a line reaches it, which is what lets the expert read most middle
games to the end. 16 stones: 30,421,755 positions, one byte each, about 10 s to build on the
development machine; later processes read the file.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from asobiba.core.data_dir import data_dir
from asobiba.games.mancala import native
from asobiba.games.mancala.board import Rules

STONES = 16
TABLED = Rules()
"""The rule set with a table: default Kalah (6 pits, standard capture, leftovers counted)."""

_lock = threading.Lock()
_loaded: set[tuple[int, str, bool]] = set()


def _key(rules: Rules) -> tuple[int, str, bool]:
    return rules.pits, rules.capture, rules.count_leftovers


def has_table(rules: Rules) -> bool:
    """True when ``rules`` have a table: the kernel is built and the pits' rules are the default."""
    return native.available(rules) and _key(rules) == _key(TABLED)


def path(directory: Path, rules: Rules = TABLED, stones: int = STONES) -> Path:
    pits, capture, leftovers = _key(rules)
    counted = "leftovers" if leftovers else "no-leftovers"
    return directory / f"mancala-endgame-{pits}-{capture}-{counted}-{stones}.bin"


def ensure(rules: Rules, directory: Path | None = None, stones: int = STONES) -> bool:
    """Load the table of ``rules`` into the kernel, building and caching it first if needed.

    Returns whether a table is in use. Safe from several threads (one builds, the others wait) and
    several processes (each writes a temporary file and renames it into place).
    """
    if not has_table(rules):
        return False
    if _key(rules) in _loaded:
        return True
    kernel = native.KERNEL
    assert kernel is not None
    with _lock:
        if _key(rules) in _loaded:
            return True
        if directory is None:
            directory = data_dir()
        pits, capture, leftovers = _key(rules)
        file = path(directory, rules, stones)
        size = kernel.endgame_size(pits, stones)
        data = file.read_bytes() if file.exists() else b""
        if len(data) != size:
            data = kernel.build_endgame(pits, native.CAPTURES[capture], leftovers, stones)
            part = file.with_suffix(f".{os.getpid()}.part")
            part.write_bytes(data)
            os.replace(part, file)
        kernel.load_endgame(pits, native.CAPTURES[capture], leftovers, stones, data)
        _loaded.add(_key(rules))
    return True


def unload() -> None:
    """Forget every loaded table (for tests that load a small one). Never while a search runs
    in another thread: the kernel frees the table it reads."""
    with _lock:
        if native.KERNEL is not None:
            native.KERNEL.unload_endgame()
        _loaded.clear()
