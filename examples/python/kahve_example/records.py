"""After a game: what the rating service recorded (docs/api.md section 2, step 8).

The table sends the result to the rating service through a durable outbox, so the match appears
there shortly after the game ends: GetMatch answers NOT_FOUND until then.
"""

import time

import grpc

from kahve_example import api
from kahve_example.api import ProtocolError, rating_pb2
from kahve_example.format import rating_text

RECORD_WAIT_SECONDS = 30


def recorded_match(rating, match_id, token):
    """GetMatch, asked again while the match is not recorded yet; returns the match and how many
    NOT_FOUND answers came first."""
    deadline = time.monotonic() + RECORD_WAIT_SECONDS
    delay = 0.05
    not_found = 0
    while True:
        try:
            request = rating_pb2.GetMatchRequest(match_id=match_id)
            return api.call(rating.GetMatch, request, token, retry=True), not_found
        except grpc.RpcError as err:
            if err.code() != grpc.StatusCode.NOT_FOUND or time.monotonic() > deadline:
                raise
        not_found += 1
        time.sleep(delay)
        delay = min(delay * 2, 1.0)


def check_records(game, outcome, players, rating, log):
    """Checks the rating service's record of a finished game against the table's result, then
    prints the rating changes, the players' ratings and their latest matches. outcome: one
    player's Outcome (all agree); players: the game's Players."""
    token = players[0].token
    match_id = outcome.assignment.match_id
    match, not_found = recorded_match(rating, match_id, token)
    mode = rating_pb2.MatchMode.Name(match.mode)
    log(f"rating service: match {match.match_id} {match.ruleset} {mode}, "
        f"{len(match.rounds)} round(s), rated: {match.rated} (GetMatch "
        f"{time.monotonic() - outcome.ended:.2f} s after the end, after {not_found} NOT_FOUND)")
    _check(match.ruleset == game.ruleset, f"the match is {game.ruleset}")
    _check(match.rated, "the match is rated")
    ranks = {s.seat: s.rank for s in outcome.result.seats}
    for p in match.participants:
        _check(ranks.get(p.seat) == p.rank and outcome.names.get(p.seat) == p.player_id,
               f"the record of seat {p.seat} ({p.player_id}, rank {p.rank}) matches the result")
    _check(len(match.participants) == len(ranks), "every seat is recorded")
    for change in match.changes:
        log(f"  {change.player_id}: display {change.before.display:.2f} "
            f"-> {change.after.display:.2f}")

    ids = [p.player_id for p in players]
    ratings = api.call(rating.GetRatings, rating_pb2.GetRatingsRequest(
        player_ids=ids, ruleset=game.ruleset, mode=rating_pb2.SOLO), token, retry=True).ratings
    by_player = {r.player_id: r for r in ratings}
    for player_id in ids:
        r = by_player.get(player_id)
        _check(r is not None and r.games >= 1, f"{player_id} has a {game.ruleset} rating")
        log(f"  rating of {player_id}: {rating_text(r)}")

    for player_id in ids:
        matches = api.call(rating.ListMatches, rating_pb2.ListMatchesRequest(
            player_id=player_id, page_size=5), token, retry=True).matches
        _check(matches and matches[0].match_id == match_id,
               f"{player_id}'s history starts with this match")
        latest = ", ".join(f"{m.ruleset} rank {_rank(m, player_id)} of {len(m.participants)}"
                           for m in matches)
        log(f"  history of {player_id}, newest first: {latest}")


def _rank(match, player_id):
    return next(p.rank for p in match.participants if p.player_id == player_id)


def _check(ok, what):
    if not ok:
        raise ProtocolError(f"check failed: {what}")
