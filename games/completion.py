"""Completion of a partial command, and the legal commands closest to a mistyped one.

Every game offers the same two answers (issue #30 for typed clients, #24 for chat), built
here from its contract: the game's `candidates(state, seat)` (its notation's language for
that seat now, a superset of `legal_commands`: every payment, rotation, count... where the
rules allow several) are kept only if `decide` accepts them, and written with
`format_command`. So nothing offered is illegal, and since a seat's candidates and `decide`
read only what that seat may know, a completion reveals nothing hidden from it.

Words are the notation's space-separated words, matched case-insensitively with `_` read as
a space (names may be typed either way; Arkadia's `trade_centre` is offered as two words). A prefix ending in a space (or empty) asks for the next
word; otherwise its last word is being typed and the answer lists the words it may become.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.contract import Completion, GameDef, Rejection
from games.memo import Memo

LIMIT = 50
"""The most complete commands one answer lists (`Completion.more` says when there are more)."""

MAX_TEXT = 200
"""`closest` compares at most this many characters of a text (a chat message can be long)."""


class _Table:
    """One seat's candidates at one state: canonical text, matching form, command, in the
    game's order, each text once; `decide`'s verdict on each is asked only when needed
    and kept (a client completing word after word asks about one state many times)."""

    __slots__ = ("game", "state", "seat", "texts", "keys", "cmds", "verdicts")

    def __init__(self, game: GameDef, state: Any, seat: int) -> None:
        self.game, self.state, self.seat = game, state, seat
        rows: dict[str, Any] = {}
        for cmd in (game.candidates or game.legal_commands)(state, seat):
            rows.setdefault(" ".join(game.format_command(cmd).split()), cmd)
        self.texts = list(rows)
        self.keys = [norm(t) for t in self.texts]
        self.texts = [t if len(t) == len(k) else k for t, k in zip(self.texts, self.keys)]
        self.cmds = list(rows.values())
        self.verdicts: dict[int, bool] = {}

    def ok(self, i: int) -> bool:
        """Whether `decide` accepts candidate `i`."""
        v = self.verdicts.get(i)
        if v is None:
            v = self.verdicts[i] = not isinstance(self.game.decide(self.state, self.seat, self.cmds[i]), Rejection)
        return v


_TABLES: Memo[tuple[str, int, int], _Table] = Memo(64)
"""(game, id(state), seat) -> its table; the table holds the state, so the id is not reused
while the entry lives."""


def _table(game: GameDef, state: Any, seat: int) -> _Table:
    key = (game.id, id(state), seat)
    hit = _TABLES.get(key)
    if hit is not None and hit.state is state and hit.game is game:
        return hit
    return _TABLES.put(key, _Table(game, state, seat))


def _a_seat(seat: Any) -> bool:
    """A seat number (a spectator, None, has no commands to complete)."""
    return isinstance(seat, int) and not isinstance(seat, bool)


def norm(text: str) -> str:
    """The form words are matched in: lower case, `_` as a space, single spaces."""
    return " ".join(text.lower().replace("_", " ").split())


def complete(game: GameDef, state: Any, seat: int, prefix: str, limit: int = LIMIT) -> Completion:
    """The words and (up to `limit`) complete commands a partial command of `seat` leads
    to now. A word is offered only if a command `decide` accepts follows it; candidates
    are decided lazily: the first of each word, the first `limit`, one more for `more`."""
    if not _a_seat(seat):
        return Completion(words=[], commands=[], complete=False)
    t = _table(game, state, seat)
    want = norm(prefix)
    if want and prefix[-1].isspace():
        want += " "
    partial = bool(want) and not want.endswith(" ")
    words: dict[str, str] = {}
    commands: list[str] = []
    more = False
    for i, key in enumerate(t.keys):
        if not (key.startswith(want) or key == want[:-1]):
            continue
        word = None
        if len(key) > len(want) or partial:
            start = key.rfind(" ", 0, len(want)) + 1
            end = key.find(" ", len(want))
            word = key[start:len(key) if end < 0 else end]
        wanted = (word is not None and word not in words) or len(commands) < limit or not more
        if not wanted or not t.ok(i):
            continue
        if len(commands) < limit:
            commands.append(t.texts[i])
        else:
            more = True
        if word is not None and word not in words:
            start = key.rfind(" ", 0, len(want)) + 1
            words[word] = t.texts[i][start:start + len(word)]
    return Completion(words=list(words.values()), commands=commands, complete=accepts(game, state, seat, prefix),
                      more=more)


def accepts(game: GameDef, state: Any, seat: int, text: str) -> bool:
    """Whether `text` parses to a command `decide` accepts for `seat` now."""
    if not text.strip():
        return False
    cmd = game.parse_command(text)
    return not isinstance(cmd, Rejection) and not isinstance(game.decide(state, seat, cmd), Rejection)


def closest(game: GameDef, state: Any, seat: int, text: str, n: int = 3) -> list[str]:
    """The `n` legal commands of `seat` closest to a mistyped `text`.

    Distance: the edit distance (insert, delete, substitute a character; on the matching
    form) between `text` and the nearest whole-word beginning of a candidate, so that
    `buidl aqeduct` finds `build Aqueduct pay cheapest` rather than a shorter command.
    Ties go to the command that adds least after that beginning, then to the game's
    order; of the commands whose nearest beginning and the word after it are the same
    (the payments of one build), only the first is offered. Candidates are decided in the
    order of their distance until `n` are found.
    """
    if n <= 0 or not _a_seat(seat):
        return []
    t = _table(game, state, seat)
    want = norm(text)[:MAX_TEXT]
    for keep in (8 * n + 24, len(t.keys)):
        best = _prefix_distances(want, t.keys, keep)
        found = [i for i, b in enumerate(best) if b is not None]
        found.sort(key=lambda i: (best[i][0], len(t.keys[i]) - best[i][1], i))  # type: ignore[index]
        out: list[str] = []
        used: set[str] = set()
        for i in found:
            group = best[i][2]  # type: ignore[index]
            if group in used or not t.ok(i):
                continue
            used.add(group)
            out.append(t.texts[i])
            if len(out) == n:
                return out
        if keep >= len(t.keys):
            return out
    return []


def _prefix_distances(want: str, texts: Sequence[str], keep: int) -> list[tuple[int, int, str] | None]:
    """For each text: (the least edit distance from `want` to one of its whole-word
    beginnings, that beginning's length, the beginning and the word after it), or None for
    a text cut short: once `keep` texts are measured, a text stops at the first word end
    where no extension can beat the `keep`-th best distance so far (the least entry of a
    column bounds every distance below it). One dynamic-programming column per character
    of a trie of the texts, so texts sharing a beginning share its work."""
    first = list(range(len(want) + 1))
    root: dict[str, tuple[list[int], dict]] = {}
    out: list[tuple[int, int, str] | None] = []
    bests: list[int] = []
    for text in texts:
        col, node = first, root
        best: tuple[int, int, str] | None = None
        bound = sorted(bests)[keep - 1] if len(bests) >= keep else None
        for j, ch in enumerate(text):
            entry = node.get(ch)
            if entry is None:
                nxt = [col[0] + 1]
                for i, wc in enumerate(want):
                    nxt.append(min(col[i + 1] + 1, nxt[i] + 1, col[i] + (wc != ch)))
                entry = node[ch] = (nxt, {})
            col, node = entry
            if j + 1 == len(text) or text[j + 1] == " ":
                if best is None or col[-1] < best[0]:
                    rest = text[j + 2:].split(" ", 1)[0]
                    best = (col[-1], j + 1, f"{text[:j + 1]} {rest}".rstrip())
                if bound is not None and min(col) > bound:
                    best = None if best[0] > bound else best
                    break
        out.append(best)
        if best is not None:
            bests.append(best[0])
            if len(bests) > 4 * keep:
                bests = sorted(bests)[:keep]
    return out
