"""``asobiba serve``: run the site with uvicorn."""

from __future__ import annotations

import uvicorn

from asobiba.server.app import create_app
from asobiba.server.settings import MAX_MESSAGE_BYTES


def serve(host: str, port: int, database_url: str | None) -> None:
    app = create_app(database_url=database_url)
    # Frames far beyond the message limit are refused by uvicorn itself (close 1009); smaller
    # oversized ones reach the room socket, which answers "too_large".
    uvicorn.run(app, host=host, port=port, ws_max_size=16 * MAX_MESSAGE_BYTES, log_level="info")
