"""Where asobiba keeps its files: the embedded database, and caches a game builds once (Mancala's
endgame table). ``ASOBIBA_DATA_DIR``, else the user's data directory. Here in core so the server
and the games read the same place without a game importing the server."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_dir


def data_dir() -> Path:
    path = Path(os.environ.get("ASOBIBA_DATA_DIR") or user_data_dir("asobiba", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path
