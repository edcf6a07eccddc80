#!/usr/bin/python3
"""Example kahve client: one game of every ruleset, each between the example's own players.

Every player runs in a thread of its own: it queues through matchmaking, connects to its table
with_view and plays one of the legal moves the table lists whenever its seat may act, from its own
view, until the game ends. Once per run a Liar's dice seat first sends three moves the table refuses
and decodes their error details (StaleSeq, PlayRejection, RequestIdPlayed). Then the rating service is asked for
each match, the new ratings and the players' histories. Prints a transcript; exits non-zero on any
failure.

Usage: play.py [--matchmaking H:P] [--rating H:P] --token JWT ... [--games IDS] [--seed N]
               [--timeout SECONDS] [--show-moves IDS]
Give one --token per seat of the games played, in the order of kahve_example/games.py (14 for
every game); the player id is the token's sub. Needs the generated kahve.v1 code on PYTHONPATH
(README.md).
"""

import argparse
import base64
import json
import os
import queue
import random
import sys
import threading
import time

import grpc

from kahve_example import games, player, probes, records
from kahve_example.api import (Clients, ProtocolError, describe, matchmaking_pb2, rating_pb2,
                               server_version)
from kahve_example.format import detail_text, result_text


class Printer:
    """Whole lines from many threads."""

    def __init__(self):
        self._lock = threading.Lock()

    def __call__(self, line):
        with self._lock:
            print(line, flush=True)

    def prefixed(self, prefix):
        """A log function for one player; its prefix can change (player.Player.log)."""
        def log(line):
            self(f"[{log.prefix}] {line}")
        log.prefix = prefix
        return log


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--matchmaking", default="127.0.0.1:50051")
    parser.add_argument("--rating", default="127.0.0.1:50053")
    parser.add_argument("--token", action="append", default=[],
                        help="a player's JWT; once per seat")
    parser.add_argument("--games", default=",".join(g.ruleset for g in games.GAMES),
                        help="the rulesets to play, comma-separated (default: all)")
    parser.add_argument("--seed", type=int, default=1, help="seeds the players' choices")
    parser.add_argument("--timeout", type=float, default=170, help="seconds for the whole run")
    parser.add_argument("--show-moves", default="liars_dice",
                        help="rulesets whose moves are printed, comma-separated, 'all' or 'none'")
    return parser.parse_args()


def subject(jwt):
    """The token's sub: the player id everywhere (docs/api.md section 1); read without a key."""
    payload = jwt.split(".")[1] if jwt.count(".") == 2 else ""
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)) or b"{}")
    if not isinstance(claims.get("sub"), str):
        raise SystemExit("play.py: a --token has no sub claim")
    return claims["sub"]


def make_players(args, printer):
    """The games to play, each with its Players, from the tokens in order."""
    chosen = [games.find(ruleset) for ruleset in args.games.split(",")]
    needed = sum(g.players for g in chosen)
    if len(args.token) != needed:
        raise SystemExit(f"play.py: {', '.join(g.ruleset for g in chosen)} need {needed} --token, "
                         f"got {len(args.token)}")
    shown = set(args.show_moves.split(","))
    if args.show_moves == "all":
        shown = {g.ruleset for g in games.GAMES}
    tokens = iter(args.token)
    lineup = []
    for game in chosen:
        seats = []
        for _ in range(game.players):
            token = next(tokens)
            player_id = subject(token)
            seats.append(player.Player(
                player_id=player_id, token=token, game=game,
                rng=random.Random(f"{args.seed}:{player_id}"),
                log=printer.prefixed(f"{game.ruleset} {player_id}"),
                show_moves=game.ruleset in shown))
        lineup.append((game, seats))
    ids = [p.player_id for _, seats in lineup for p in seats]
    if len(set(ids)) != len(ids):
        raise SystemExit("play.py: every --token must be another player's")
    return lineup


def run_player(p, clients, run_id, error_probes, done):
    """A player's thread: queue, play, and report the Outcome (or the error) on done."""
    try:
        assignment = player.queue(p, clients, run_id)
        p.log.prefix = f"{p.game.ruleset} seat {assignment.seat} {p.player_id}"
        p.log(f"matched: table {assignment.table_id} at {assignment.table_endpoint}, "
              f"match {assignment.match_id}")
        outcome = player.play(p, clients, assignment, error_probes)
        p.log(f"done: {outcome.moves} moves of mine, table at seq {outcome.final_seq}")
        done.put((p, outcome))
    except Exception as err:  # noqa: BLE001 (reported by the main thread)
        done.put((p, err))


def check_table(game, seats, outcomes):
    """A game's players sat at one table, each on its own seat, with no bot, and saw one result."""
    first = outcomes[seats[0].player_id]
    for p in seats:
        o = outcomes[p.player_id]
        if (o.assignment.table_id, o.assignment.match_id) != (first.assignment.table_id,
                                                              first.assignment.match_id):
            raise ProtocolError(f"{game.ruleset}: the players were seated at different tables")
        if o.names.get(o.assignment.seat) != p.player_id:
            raise ProtocolError(f"{game.ruleset}: seat {o.assignment.seat} is not {p.player_id}'s")
        if o.result != first.result:
            raise ProtocolError(f"{game.ruleset}: the seats saw different results")
    if sorted(first.names.values()) != sorted(p.player_id for p in seats):
        raise ProtocolError(f"{game.ruleset}: the seats are {first.names}, not the example's")


def check_game(game, seats, outcomes, clients, printer):
    """A finished game: its table, its result and what the rating service recorded."""
    check_table(game, seats, outcomes)
    # The last of its players to see the end: the time the records are waited for from.
    outcome = max((outcomes[p.player_id] for p in seats), key=lambda o: o.ended)
    log = printer.prefixed(game.ruleset)
    log(f"result: {result_text(outcome.result, outcome.names)}")
    records.check_records(game, outcome, seats, clients.rating, log)


def play_all(lineup, clients, printer):
    """Plays every game of the lineup, checks it and what the rating service recorded."""
    started = time.monotonic()
    error_probes = probes.ErrorDetailProbes()
    run_id = f"py{os.getpid()}-{int(time.time())}"
    done = queue.Queue()
    everyone = [p for _, seats in lineup for p in seats]
    games_text = "; ".join(f"{g.ruleset} ({', '.join(p.player_id for p in seats)})"
                           for g, seats in lineup)
    token = everyone[0].token
    versions = {"matchmaking": server_version(clients.matchmaking.GetQueueStats,
                                              matchmaking_pb2.GetQueueStatsRequest(), token),
                "rating": server_version(clients.rating.GetRatings, rating_pb2.GetRatingsRequest(
                    player_ids=[everyone[0].player_id]), token)}
    printer("== kahve-server-version: " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    if len(set(versions.values())) != 1:
        raise ProtocolError(f"the services run different versions: {versions}")
    printer(f"== {len(everyone)} players queue for {len(lineup)} games: {games_text}")
    for p in everyone:
        threading.Thread(target=run_player, args=(p, clients, run_id, error_probes, done),
                         name=p.player_id, daemon=True).start()

    # Each game is checked, and its record looked up, as soon as all its players are done.
    outcomes = {}
    for _ in everyone:
        p, outcome = done.get()
        if isinstance(outcome, BaseException):
            printer(f"[{p.log.prefix}] failed")
            raise outcome
        outcomes[p.player_id] = outcome
        seats = next(seats for game, seats in lineup if game is p.game)
        if all(q.player_id in outcomes for q in seats):
            check_game(p.game, seats, outcomes, clients, printer)
    if any(g.ruleset == probes.RULESET for g, _ in lineup) and error_probes.missing():
        raise ProtocolError(f"no turn came for the probes {', '.join(error_probes.missing())}")

    printer("== summary: game, moves played by the example's players, table seq at the end, "
            "seconds from Connect to the result")
    for game, seats in lineup:
        mine = [outcomes[p.player_id] for p in seats]
        printer(f"   {game.ruleset:<14} {sum(o.moves for o in mine):5d} moves  "
                f"seq {mine[0].final_seq:5d}  {max(o.seconds for o in mine):6.1f} s")
    for detail in error_probes.shown.values():
        printer(f"   decoded {detail_text(detail)}")
    printer(f"== ok: {len(lineup)} games in {time.monotonic() - started:.1f} s")


def main():
    args = parse_args()
    printer = Printer()
    lineup = make_players(args, printer)
    # A watchdog rather than per-step deadlines: the steps wait on streams; this bounds the run.
    watchdog = threading.Timer(args.timeout, lambda: (printer(f"play.py: FAILED: no end within "
                                                              f"{args.timeout:g} s"), os._exit(1)))
    watchdog.daemon = True
    watchdog.start()
    clients = Clients(args.matchmaking, args.rating)
    try:
        play_all(lineup, clients, printer)
    finally:
        clients.close()


if __name__ == "__main__":
    try:
        main()
    except ProtocolError as err:
        print(f"play.py: FAILED: {err}", file=sys.stderr)
        sys.exit(1)
    except grpc.RpcError as err:
        print(f"play.py: FAILED: {describe(err)}", file=sys.stderr)
        sys.exit(1)
