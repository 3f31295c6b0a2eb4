"""verify(log): the hash chain, the seed commitment against the logged deal, replay equality.

Pure: the caller reads the log, the stored view documents and the stored statistics row
and passes them in; the answer is a list of problems (empty means the game checks out).
`projection` says whether those projections are the log's: present and current up to what
the projector has passed, never ahead of the log. Both take the log already folded
(`fold`), so a caller that asks both folds it once.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping, Sequence

import msgspec

from events.chain import verify as verify_chain
from events.envelope import Envelope
from events.meta import is_meta
from games.contract import GameDef, Seed
from projections import board, stats
from projections.table import Table, advance, codec, empty


def verify(game: GameDef, envelopes: Sequence[Envelope],
           views: Mapping[int | None, bytes | None] | None = None,
           stored_row: bytes | None = None, table: Table | None = None) -> list[str]:
    """Every problem found in one game's log and its stored projections. `table`: the
    log already folded (`fold`), which the caller may share with `projection`."""
    if not envelopes:
        return ["the log is empty"]
    problems = list(verify_chain(envelopes))
    seen = Counter(e.seq for e in envelopes)
    problems += [f"seq {seq} appears {n} times in the log" for seq, n in sorted(seen.items()) if n > 1]
    try:
        # One fold of the log, which keeps the tables at the seqs the stored views show on
        # its way (a view is almost always at the log's end: then it is the whole fold).
        prefixes = _prefixes(game, envelopes, _seqs(views or {}), table)
    except Exception as e:  # an undecodable or out-of-order log is a finding, not a crash
        return [*problems, f"the log does not replay: {type(e).__name__}: {e}"]
    table = prefixes[max(prefixes)]
    opened = table.opened
    if opened is None:
        return [*problems, "the log has no GameOpened event"]
    # A log of an earlier rules version folds as it was played (evolve applies the facts
    # it recorded, version-gated where their meaning changed); one of a later version than
    # this code cannot be judged by it.
    if opened.rules_version > game.rules_version:
        problems.append(f"played under rules v{opened.rules_version}, newer than this code's "
                        f"v{game.rules_version}: verify it with that version")
    if not opened.fixture:
        problems += _check_seed(game, envelopes, table.seed, opened)
    fresh: dict[int, dict[int | None, bytes]] = {}  # every audience's document, per prefix shown
    for seat, data in (views or {}).items():
        if data is None:
            continue
        doc = board.decode_doc(data)
        at = min(max(doc.seq, 0), table.version)
        if at not in fresh:
            fresh[at] = board.docs(prefixes[at])
        mine = fresh[at].get(seat)
        if mine is None:  # a view of no audience of the game: judged on its own
            mine = board.doc(prefixes[at], seat)
        if not board.same_view(data, mine):
            who = "spectator" if seat is None else f"seat {seat}"
            problems.append(f"the stored view of {who} at seq {doc.seq} differs from replay")
    if stored_row is not None:
        mine = stats.row(table, envelopes)
        if mine is None or stored_row not in (stats.encode_row(mine), _as_before_options(mine)):
            problems.append("the stored statistics row differs from replay")
    if game.result(table.state) is not None and not opened.fixture and table.seed is None:
        problems.append("the game is over but its seed was never revealed")
    return problems


def fold(game: GameDef, envelopes: Sequence[Envelope]) -> Table | None:
    """The log folded, or None if it does not fold (`verify` says why)."""
    if not envelopes:
        return None
    try:
        return advance(empty(envelopes[0].game_id, game), envelopes)
    except Exception:
        return None


def _seqs(views: Mapping[int | None, bytes | None]) -> set[int]:
    """The seqs the stored views show (an undecodable one is `verify`'s to raise on)."""
    out = set()
    for data in views.values():
        if data is not None:
            try:
                out.add(board.decode_doc(data).seq)
            except msgspec.DecodeError:
                pass
    return out


def _prefixes(game: GameDef, envelopes: Sequence[Envelope], seqs: set[int],
              whole: Table | None = None) -> dict[int, Table]:
    """The tables after the log's first `seq` envelopes for each of `seqs` within the log
    (0: the empty table) and after all of them (`whole` if given), by at most one fold;
    raises what folding raises. A log folds only if its seqs run 1, 2, ... n, so its first
    `seq` envelopes are the ones up to seq `seq`."""
    table = empty(envelopes[0].game_id, game)
    out = {0: table}
    done = 0
    for seq in sorted(x for x in seqs if 0 < x < len(envelopes)):
        table = out[seq] = advance(table, envelopes[done:seq])
        done = seq
    if whole is None:
        whole = advance(table, envelopes[done:])
    out[whole.version] = whole
    return out


def _as_before_options(row: stats.GameRow) -> bytes:
    """`row` as the projector wrote it before rows recorded the game's options: a stored
    row of that kind verifies when every other field matches byte for byte."""
    return stats.encode_row(msgspec.structs.replace(row, options={}))


def _check_seed(game: GameDef, envelopes: Sequence[Envelope], seed_hex: str | None, opened: object) -> list[str]:
    if seed_hex is None:
        return []  # still running: the commitment is checked once the seed is revealed
    seed = bytes.fromhex(seed_hex)
    if hashlib.sha256(seed).hexdigest() != opened.seed_commitment:  # type: ignore[attr-defined]
        return ["the revealed seed does not match the commitment in GameOpened"]
    options = msgspec.json.decode(opened.options, type=game.options_type)  # type: ignore[attr-defined]
    expected = [_dealt(*codec(game).encode(e)) for e in game.setup(options, Seed(seed))]
    first_cmd = envelopes[0].command_id
    logged = [_dealt(e.type, e.v, e.data, game.earlier_catalogs)
              for e in envelopes if e.command_id == first_cmd and not is_meta(e.type)]
    if logged != expected:
        return ["the opening events differ from a fresh setup from the revealed seed"]
    return []


def _dealt(type_: str, v: int, data: bytes,
           earlier_catalogs: Mapping[str, str] | None = None) -> tuple[str, int, object]:
    """What a setup event says was dealt: its payload without the rules version the code
    that wrote it stamps on it (the same seed deals the same under a later version), and
    with a catalog hash of seed files whose rules data is today's read as today's hash
    (`GameDef.earlier_catalogs`: only their documentation fields changed)."""
    payload = msgspec.json.decode(data)
    if isinstance(payload, dict):
        payload.pop("rules_version", None)
        old = payload.get("catalog_hash")
        if earlier_catalogs and isinstance(old, str) and old in earlier_catalogs:
            payload["catalog_hash"] = earlier_catalogs[old]
    return type_, v, payload


def projection(game: GameDef, envelopes: Sequence[Envelope], views: Mapping[int | None, bytes | None],
               stored_row: bytes | None, projected_to: int, log_length: int | None = None,
               table: Table | None = None) -> list[str]:
    """Whether a game's stored views and statistics row are the log's, as far as the
    projector has gone: every view present and at least at seq `projected_to` (the last seq
    of this game the projector has passed; the log's last seq when nothing is pending),
    none beyond the log (`log_length`: its length read after the views, which only follow
    the log), and a row exactly when the game is over and projected. Missing, stale and
    ahead are findings (a projector that skipped a game had let `verify` pass it)."""
    if table is None:
        table = fold(game, envelopes)
    if table is None:
        return []  # an empty log, or one that does not fold: `verify` says why
    last = envelopes[-1].seq
    length = last if log_length is None else log_length
    problems = []
    for seat in board.seats(table):
        who = "spectator" if seat is None else f"seat {seat}"
        data = views.get(seat)
        if data is None:
            if projected_to > 0:
                problems.append(f"the view of {who} is missing (the projector has passed seq {projected_to})")
            continue
        seq = board.decode_doc(data).seq
        if seq > length:
            problems.append(f"the stored view of {who} is at seq {seq}, beyond the log's last seq {length}")
        elif seq < projected_to:
            problems.append(f"the stored view of {who} is stale: at seq {seq}, the projector has passed "
                            f"seq {projected_to} (the log's last is {last})")
    over = game.result(table.state) is not None
    if over and stored_row is None and projected_to >= last:
        problems.append("the game is over and projected, but it has no statistics row")
    if not over and stored_row is not None:
        problems.append("a statistics row is stored, but the log's game is not over")
    return problems
