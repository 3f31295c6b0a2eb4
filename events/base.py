"""House rules for every stored event and every inbound command.

These tags and fields are the storage format; change them only as the versioning policy
in `events/README.md` allows.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec


class _TaggedMeta(msgspec.StructMeta):
    """Refuses a concrete Event/Command subclass without an explicit string tag.

    msgspec's default tag is the class name; a class rename would then change the
    storage format, so we require `class X(Event, tag="x")`.
    """

    def __new__(mcls, name: str, bases: tuple[type, ...], ns: dict[str, Any], **kw: Any):
        is_root = not any(isinstance(b, _TaggedMeta) for b in bases)
        if not is_root and not ns.get("__abstract__", False) and not isinstance(kw.get("tag"), str):
            raise TypeError(f"{name} must pass an explicit tag='...' (stored tags never change)")
        ns.pop("__abstract__", None)
        return super().__new__(mcls, name, bases, ns, **kw)


class Event(msgspec.Struct, metaclass=_TaggedMeta, frozen=True, kw_only=True, tag_field="type", gc=False):
    """A fact that happened in a game. Frozen, keyword-only, explicitly tagged."""

    version: ClassVar[int] = 1


class Command(
    msgspec.Struct,
    metaclass=_TaggedMeta,
    frozen=True,
    kw_only=True,
    tag_field="type",
    forbid_unknown_fields=True,
):
    """What a seat asks for. Frozen, explicitly tagged, unknown fields refused."""
