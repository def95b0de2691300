"""Types of the compiled kernel (_kernel.c); native.py documents how it is chosen."""

from collections.abc import Sequence

def best(
    board: Sequence[int],
    player: int,
    pits: int,
    capture: int,
    leftovers: bool,
    depth: int,
    nodes: int,
    seconds: float,
    endgame: bool,
) -> tuple[int, int, int, bool, int]: ...
def analyse(
    board: Sequence[int],
    player: int,
    pits: int,
    capture: int,
    leftovers: bool,
    depth: int,
    nodes: int,
    seconds: float,
    endgame: bool,
) -> list[tuple[int, int, bool]]: ...
def solve(
    board: Sequence[int],
    player: int,
    pits: int,
    capture: int,
    leftovers: bool,
    nodes: int,
    seconds: float,
    table_bits: int,
    endgame: bool,
) -> list[tuple[int, int]] | None: ...
def build_endgame(pits: int, capture: int, leftovers: bool, stones: int) -> bytes: ...
def load_endgame(pits: int, capture: int, leftovers: bool, stones: int, table: bytes) -> None: ...
def unload_endgame() -> None: ...
def endgame_size(pits: int, stones: int) -> int: ...
