"""Whatever a client sends, parsing either yields a message or a typed error: never a crash."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from asobiba.server.rooms.errors import RoomError
from asobiba.server.sockets.messages import Act, Sync, parse_client_message

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(st.text(max_size=300))
def test_any_text_parses_or_gets_a_typed_error(text: str) -> None:
    try:
        message = parse_client_message(text)
    except RoomError as error:
        assert error.code in {"bad_json", "bad_message", "too_large"}
    else:
        assert isinstance(message, Act | Sync)


@given(json_values)
def test_any_json_parses_or_gets_a_typed_error(value: object) -> None:
    try:
        message = parse_client_message(json.dumps(value))
    except RoomError as error:
        assert error.code in {"bad_message", "too_large"}
    else:
        assert isinstance(value, dict)
        assert isinstance(message, Act | Sync)


def test_the_two_message_kinds() -> None:
    assert parse_client_message('{"type": "sync"}') == Sync()
    assert parse_client_message('{"type": "act", "action": {"pit": 1}}') == Act({"pit": 1})
