"""Option rules and their validation (core/options.py), on a made-up game's specs."""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError
from types import MappingProxyType
from typing import Any

import pytest

from asobiba.core.errors import InvalidOptions
from asobiba.core.options import OptionSpec, resolve_options, rule_key

LABEL = {"ja": "ラベル", "en": "Label"}
SPECS = [
    OptionSpec("mode", ("open", "closed"), "open", LABEL, {"open": LABEL, "closed": LABEL}),
    OptionSpec("count", (1, 2, 3), 2, LABEL),
    OptionSpec("flag", (True, False), True, LABEL, only_when=("mode", "open")),
    OptionSpec("size", (3, 4), 4, LABEL, ui=False),
]
DEFAULTS = {"mode": "open", "count": 2, "flag": True, "size": 4}


def test_missing_options_take_their_defaults() -> None:
    assert resolve_options(SPECS, {}) == DEFAULTS


def test_given_options_are_kept() -> None:
    given = {"count": 3, "flag": False, "size": 3}
    assert resolve_options(SPECS, given) == {**DEFAULTS, **given}


def test_resolving_does_not_change_the_given_options() -> None:
    given = {"count": 3}
    resolve_options(SPECS, given)
    assert given == {"count": 3}


def test_any_mapping_is_accepted() -> None:
    assert resolve_options(SPECS, MappingProxyType({"count": 1}))["count"] == 1


@pytest.mark.parametrize("options", [None, [], "mode=open", 3, [("mode", "open")]])
def test_options_must_be_a_mapping(options: Any) -> None:
    with pytest.raises(
        InvalidOptions, match=f"options must be an object, got {type(options).__name__}"
    ):
        resolve_options(SPECS, options)


def test_unknown_key_is_named_with_the_known_keys() -> None:
    with pytest.raises(InvalidOptions, match=r"unknown option 'colour'; known: \['count', 'flag'"):
        resolve_options(SPECS, {"colour": "red"})


def test_value_outside_the_declared_set_is_named_with_the_allowed_values() -> None:
    with pytest.raises(InvalidOptions, match=r"option 'count' cannot be 4; allowed: \[1, 2, 3\]"):
        resolve_options(SPECS, {"count": 4})


@pytest.mark.parametrize(
    ("key", "value"),
    [("count", True), ("flag", 1), ("flag", 0), ("count", 2.0), ("count", "2"), ("mode", None)],
)
def test_value_must_have_the_declared_type_true_is_not_1(key: str, value: Any) -> None:
    with pytest.raises(InvalidOptions, match=f"option '{key}' cannot be {value!r}"):
        resolve_options(SPECS, {key: value})


def test_option_that_does_not_apply_is_left_out_of_the_resolved_form() -> None:
    assert resolve_options(SPECS, {"mode": "closed"}) == {"mode": "closed", "count": 2, "size": 4}


def test_option_that_does_not_apply_given_at_its_default_is_dropped_too() -> None:
    assert resolve_options(SPECS, {"mode": "closed", "flag": True}) == resolve_options(
        SPECS, {"mode": "closed"}
    )


def test_option_that_does_not_apply_given_another_value_is_refused_by_name() -> None:
    with pytest.raises(InvalidOptions, match="option 'flag' applies only when mode is 'open'"):
        resolve_options(SPECS, {"mode": "closed", "flag": False})


def test_rule_key_names_a_rule_set_by_sorted_keys_with_json_booleans() -> None:
    resolved = resolve_options(SPECS, {"flag": False})
    assert rule_key(resolved) == "count=2,flag=false,mode=open,size=4"


def test_rule_key_does_not_depend_on_the_order_options_were_given() -> None:
    a = resolve_options(SPECS, {"count": 1, "mode": "open"})
    b = resolve_options(SPECS, {"mode": "open", "count": 1})
    assert rule_key(a) == rule_key(b)


def test_spec_to_json_is_json_safe_and_complete() -> None:
    data = SPECS[2].to_json()
    assert json.loads(json.dumps(data)) == {
        "key": "flag",
        "values": [True, False],
        "default": True,
        "label": LABEL,
        "value_labels": {},
        "only_when": ["mode", "open"],
        "ui": True,
    }
    assert SPECS[0].to_json()["only_when"] is None
    assert SPECS[3].to_json()["ui"] is False


def test_specs_are_frozen() -> None:
    with pytest.raises(FrozenInstanceError):
        SPECS[0].default = "closed"  # type: ignore[misc]
