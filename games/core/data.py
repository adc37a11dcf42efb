"""The rules' values as plain JSON data, for what crosses to another process or machine.

A robot's question (its view of the deal) and its answer travel through the robots' queue, a
database other hosts can write. Pickle would run whatever code such a host put there; this
codec only ever builds the rules' own values: frozen dataclasses and enums defined under
``games.``, and tuples, lists, sets, mappings, numbers, strings and None. A class is found by
its module and name and built through its constructor (its checks run); any other name is
refused with ``NotData``, before anything is built.

>>> from games.bridge.cards import Card
>>> text = dumps((Card.parse("SQ"), frozenset({1}), {"a": None}))
>>> loads(text) == (Card.parse("SQ"), frozenset({1}), {"a": None})
True
>>> loads('{"c": "os:system", "f": {}}')
Traceback (most recent call last):
...
games.core.data.NotData: os:system is not one of the rules' types
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import json
from collections.abc import Callable, Mapping
from typing import Any

ROOT = "games."  # the only package whose types and works are built from data


class NotData(ValueError):
    """The text is not a value of the rules (malformed, or names a type or work outside them)."""


_WORKS: dict[str, Callable[..., Any]] = {}


def remote(work: Callable[..., Any]) -> Callable[..., Any]:
    """Marks a function of the rules as one another process may be asked to run by name."""
    _WORKS[work_name(work)] = work
    return work


def work_name(work: Callable[..., Any]) -> str:
    return f"{work.__module__}:{work.__qualname__}"


def find_work(name: str) -> Callable[..., Any]:
    """The function ``name`` names, if it was marked ``remote`` (its module is imported
    first: only a module under ``games.`` is)."""
    _module_of(name)
    work = _WORKS.get(name)
    if work is None:
        raise NotData(f"{name} is not a work of the rules")
    return work


def _module_of(name: str) -> Any:
    module, sep, _ = name.partition(":")
    if not sep or not module.startswith(ROOT) or not module.replace(".", "").isidentifier():
        raise NotData(f"{name} is not one of the rules' types")
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise NotData(f"{name}: no such module") from error


def _type(name: str) -> type:
    found: Any = _module_of(name)
    for part in name.partition(":")[2].split("."):
        found = getattr(found, part, None)
    if (
        not isinstance(found, type)
        or not found.__module__.startswith(ROOT)  # defined by the rules, not only reachable
        or not (dataclasses.is_dataclass(found) or issubclass(found, enum.Enum))
    ):
        raise NotData(f"{name} is not one of the rules' types")
    return found


def to_data(value: Any) -> Any:
    """``value`` as JSON-able data (see the module)."""
    if value is None or isinstance(value, bool | str | float):
        return value
    if isinstance(value, enum.Enum):
        return {"e": _name(type(value)), "v": to_data(value.value)}
    if isinstance(value, int):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value)
                  if f.init}  # fmt: skip
        return {"c": _name(type(value)), "f": fields}
    if isinstance(value, tuple):
        return {"t": [to_data(v) for v in value]}
    if isinstance(value, list):
        return [to_data(v) for v in value]
    if isinstance(value, frozenset):
        return {"fs": [to_data(v) for v in value]}
    if isinstance(value, set):
        return {"s": [to_data(v) for v in value]}
    if isinstance(value, Mapping):
        return {"d": [[to_data(k), to_data(v)] for k, v in value.items()]}
    raise NotData(f"{type(value).__name__} is not one of the rules' values")


def _name(kind: type) -> str:
    name = f"{kind.__module__}:{kind.__qualname__}"
    if not name.startswith(ROOT):
        raise NotData(f"{name} is not one of the rules' types")
    return name


def from_data(data: Any) -> Any:
    """The value ``to_data`` made ``data`` from; NotData for anything else."""
    if data is None or isinstance(data, bool | int | float | str):
        return data
    if isinstance(data, list):
        return [from_data(v) for v in data]
    if not isinstance(data, dict) or len(data) not in (1, 2):
        raise NotData("not a value of the rules")
    try:
        if "c" in data:
            kind = _type(str(data["c"]))
            fields = data["f"]
            if not isinstance(fields, dict):
                raise NotData("a value's fields are not a mapping")
            return kind(**{str(k): from_data(v) for k, v in fields.items()})
        if "e" in data:
            return _type(str(data["e"]))(from_data(data["v"]))
        (tag, items), = data.items()  # fmt: skip
        if tag == "d":
            return {from_data(k): from_data(v) for k, v in items}
        values = [from_data(v) for v in items]
        if tag == "t":
            return tuple(values)
        if tag == "fs":
            return frozenset(values)
        if tag == "s":
            return set(values)
    except NotData:
        raise
    except Exception as error:  # a constructor's own check refused it, or a shape it lacks
        raise NotData(f"not a value of the rules ({type(error).__name__})") from error
    raise NotData("not a value of the rules")


def dumps(value: Any) -> str:
    return json.dumps(to_data(value), ensure_ascii=False, separators=(",", ":"))


def loads(text: str | bytes) -> Any:
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as error:
        raise NotData("not JSON") from error
    return from_data(data)
