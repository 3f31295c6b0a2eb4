"""Ratings (projections/ratings.py): a deterministic fold of finished games' rows in order."""

from __future__ import annotations

import random

from events.meta import SeatPlayer
from projections import ratings
from projections.stats import GameRow, SeatRow


def bot(kind: str) -> SeatPlayer:
    return SeatPlayer(kind="bot", id=kind, name=f"{kind} bot")


def row(game_id: str, ended: int, seated: list[SeatPlayer], ranks: list[int]) -> GameRow:
    seats = [SeatRow(facets={}, scores=[10 - r], total=10 - r, rank=r) for r in ranks]
    return GameRow(game_id=game_id, game_type="t", players=len(ranks), categories=["c"], seats=seats,
                   winners=[i for i, r in enumerate(ranks) if r == 1], events=1, commands=1,
                   started_ms=0, ended_ms=ended, seated=seated)


def results(rows: list[GameRow]) -> list[ratings.Result]:
    return [r for r in map(ratings.result, rows) if r is not None]


def games(n: int) -> list[ratings.Result]:
    rnd = random.Random(7)
    names = [bot("greedy"), bot("random"), SeatPlayer(kind="name", id="Ada", name="Ada")]
    out = []
    for i in range(n):
        a, b = rnd.sample(names, 2)
        win = rnd.random() < (0.8 if a.id == "greedy" else 0.4)
        out.append(row(f"g{i:03d}", 1000 + i, [a, b], [1, 2] if win else [2, 1]))
    return results(out)


def test_the_fold_is_the_same_whatever_order_the_rows_come_in() -> None:
    rows = games(40)
    first, at = ratings.rebuild(rows)
    again, at2 = ratings.rebuild(random.Random(1).sample(rows, len(rows)))
    assert first == again and at == at2 and at.games == 40 and at.game_id == "g039"
    assert sum(r.games for r in first.values()) == 80  # two players a game
    board = ratings.leaderboard(first)
    assert board[0]["player"] == "bot:greedy" and board[0]["ordinal"] == first["bot:greedy"].mu - 3 * first["bot:greedy"].sigma


def test_extending_the_stored_ratings_equals_folding_every_game_again() -> None:
    rows = games(30)
    part, at = ratings.rebuild(rows[:20])
    got = ratings.extend(part, at, rows[20:])
    assert got == ratings.rebuild(rows)
    assert ratings.decode_result(ratings.encode_result(rows[0])) == rows[0]
    stored = ratings.encode_ratings(*got)  # through the hash's encoding: floats round-trip exactly
    assert ratings.decode_ratings({k.encode(): v for k, v in stored.items()}) == got
    assert ratings.extend(part, at, [rows[5]]) is None  # a game before the fold position: rebuild


def test_a_winner_gains_a_tie_moves_little_and_unrated_games_are_skipped() -> None:
    a, b = bot("greedy"), bot("random")
    won, _ = ratings.rebuild(results([row("g1", 1, [a, b], [1, 2])]))
    assert won["bot:greedy"].mu > 25 > won["bot:random"].mu
    tied, _ = ratings.rebuild(results([row("g1", 1, [a, b], [1, 1])]))
    assert abs(tied["bot:greedy"].mu - tied["bot:random"].mu) < 1e-9
    unnamed = row("g2", 2, [], [1, 2])
    alone = row("g3", 3, [a, a], [1, 2])  # one player in every seat teaches nothing
    assert ratings.result(unnamed) is None and ratings.result(alone) is None


def test_a_player_holding_two_seats_gets_the_mean_of_their_new_ratings_and_one_game() -> None:
    a, b = bot("greedy"), bot("random")
    got, _ = ratings.rebuild(results([row("g1", 1, [a, b, a], [1, 2, 3])]))
    assert got["bot:greedy"].games == 1 and got["bot:random"].games == 1
    alone, _ = ratings.rebuild(results([row("g1", 1, [a, b, SeatPlayer(kind="bot", id="x", name="x")], [1, 2, 3])]))
    third, _ = ratings.rebuild(results([row("g1", 1, [SeatPlayer(kind="bot", id="x", name="x"), b, a], [1, 2, 3])]))
    mean = (alone["bot:greedy"].mu + third["bot:greedy"].mu) / 2
    assert abs(got["bot:greedy"].mu - mean) < 1e-9
