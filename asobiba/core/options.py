"""Declared option rules and their validation, shared by every game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from asobiba.core.errors import InvalidOptions


@dataclass(frozen=True)
class OptionSpec:
    """One option rule a game declares."""

    key: str
    values: tuple[Any, ...]
    """Every allowed value, in the order a settings form lists them."""
    default: Any
    label: dict[str, str]
    """``{"ja": ..., "en": ...}``: the option's name."""
    value_labels: dict[str, dict[str, str]] = field(default_factory=dict)
    """Optional display names per value (``str(value)`` → ``{"ja", "en"}``)."""
    only_when: tuple[str, Any] | None = None
    """``(key, value)``: the option exists only when another option has that value."""
    ui: bool = True
    """False for options the engine takes but the site does not offer (e.g. small test boards)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "values": list(self.values),
            "default": self.default,
            "label": self.label,
            "value_labels": self.value_labels,
            "only_when": list(self.only_when) if self.only_when else None,
            "ui": self.ui,
        }


def resolve_options(specs: list[OptionSpec], options: Mapping[str, Any]) -> dict[str, Any]:
    """Check ``options`` against ``specs`` and return them with every default filled in.

    Unknown keys, values outside the declared set (``True`` is not ``1``) and options set to a
    non-default value where they do not apply raise ``InvalidOptions`` naming the culprit. A form
    may send every key, so a default value where the option does not apply is accepted. Options
    that do not apply are left out of the result, so one rule set has exactly one resolved form.
    """
    if not isinstance(options, Mapping):
        raise InvalidOptions(f"options must be an object, got {type(options).__name__}")
    by_key = {spec.key: spec for spec in specs}
    for key in options:
        if key not in by_key:
            raise InvalidOptions(f"unknown option {key!r}; known: {sorted(by_key)}")
    resolved: dict[str, Any] = {}
    for spec in specs:
        if spec.key in options:
            value = options[spec.key]
            if not any(type(value) is type(v) and value == v for v in spec.values):
                raise InvalidOptions(
                    f"option {spec.key!r} cannot be {value!r}; allowed: {list(spec.values)}"
                )
            resolved[spec.key] = value
        else:
            resolved[spec.key] = spec.default
    for spec in specs:
        if spec.only_when is not None:
            other, wanted = spec.only_when
            if resolved[other] != wanted:
                if spec.key in options and options[spec.key] != spec.default:
                    raise InvalidOptions(
                        f"option {spec.key!r} applies only when {other} is {wanted!r}"
                    )
                del resolved[spec.key]
    return resolved


def offered_only(specs: list[OptionSpec], options: Mapping[str, Any]) -> None:
    """Refuse options the engine takes but the site does not offer (``ui=False``), so a game
    started from outside the site is always one a player could have chosen."""
    hidden = sorted(spec.key for spec in specs if not spec.ui and spec.key in options)
    if hidden:
        raise InvalidOptions(f"option {hidden[0]!r} is not offered on this site")


def rule_key(resolved: Mapping[str, Any]) -> str:
    """A stable, readable name of a resolved rule set, e.g. ``capture=standard,seeds=4,...``."""
    return ",".join(f"{k}={_text(v)}" for k, v in sorted(resolved.items()))


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
