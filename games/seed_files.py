"""A game's catalog files: read from the `seeds` package, decoded against their schema, hashed.

Every game loads its catalog the same way: the files' bytes from seeds/<game>/ (shipped
inside the installed package), each decoded into its file Struct, a file that does not
fit raised as `CatalogError` naming the file (and the row, when the error points into a
table), and the catalog hash each game records in its opening: SHA-256 of the files'
bytes, sorted by file name, joined by a NUL byte.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Any, TypeVar

import msgspec

T = TypeVar("T")


class CatalogError(ValueError):
    """A seed file does not hold a valid catalog; the message names the file and row."""


def read(game: str, names: Iterable[str]) -> dict[str, bytes]:
    """The bytes of seeds/<game>/<name> for each name."""
    folder = resources.files("seeds").joinpath(game)
    return {name: folder.joinpath(name).read_bytes() for name in names}


def decode(where: str, raw: bytes, kind: type[T]) -> T:
    """`raw` decoded as `kind`; otherwise a CatalogError naming `where` (the file) and, when
    the error's path is a table's row (`$.cards[5]...`), that row's index, id and name."""
    try:
        return msgspec.json.decode(raw, type=kind)
    except msgspec.ValidationError as exc:
        m = re.search(r"\$\.(\w+)\[(\d+)\]", str(exc))
        if m is not None:
            table, index = m.group(1), int(m.group(2))
            try:
                row: Any = msgspec.json.decode(raw)[table][index]
                where += f": {table}[{index}] ({row.get('id', '?')} {row.get('name', '')})".rstrip()
            except (msgspec.DecodeError, KeyError, IndexError, TypeError, AttributeError):
                pass
        raise CatalogError(f"{where}: {exc}") from None
    except msgspec.DecodeError as exc:
        raise CatalogError(f"{where}: {exc}") from None


def digest(raw: Mapping[str, bytes]) -> str:
    """The catalog hash: SHA-256 of the files' bytes sorted by file name, NUL-joined."""
    return hashlib.sha256(b"\x00".join(raw[name] for name in sorted(raw))).hexdigest()
