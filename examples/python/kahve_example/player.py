"""One player's way through a game, as docs/api.md section 2 lays it out: Enqueue, WatchTicket
until MATCHED, Connect to the assigned table with_view, and whenever the stream's latest update
gives the seat legal moves, Play one of them, until the game's result arrives.

The player knows no rules: it picks one of the legal moves the table lists (a seeded random
choice) and shows moves in protobuf's text format.
"""

import dataclasses
import random
import time
from typing import Callable

import grpc

from kahve_example import api, table_stream
from kahve_example.api import ProtocolError, matchmaking_pb2, table_pb2
from kahve_example.format import message_text
from kahve_example.games import Game

MAX_WATCHES = 6


@dataclasses.dataclass
class Player:
    player_id: str  # the token's sub
    token: str
    game: Game
    rng: random.Random
    log: Callable[[str], None]  # prints a line of this player's
    show_moves: bool  # print each move this player plays


@dataclasses.dataclass
class Outcome:
    """What a player saw of its game."""
    assignment: matchmaking_pb2.Assignment
    names: dict  # seat -> player id ("bot:KIND" for a bot seat), from the first snapshot
    result: object  # kahve.v1.Result
    moves: int  # the moves this player played
    final_seq: int
    seconds: float  # from Connect to the result
    ended: float  # time.monotonic() when the stream ended


class Seat:
    """A player at its assigned seat: builds and sends its Play requests."""

    def __init__(self, player, table, assignment):
        self.player = player
        self.table = table
        self.assignment = assignment
        self.played = []  # (request_id, seq, move) of every move this seat played, oldest first

    def request(self, move, expected_seq, tag=""):
        """A Play of move if the table is still at expected_seq. The request id is unique per seat
        and seq (the table keeps request ids per seat), so a retry plays the move once."""
        return table_pb2.PlayRequest(table_id=self.assignment.table_id,
                                     seat_token=self.assignment.seat_token, move=move,
                                     request_id=f"move-{expected_seq}{tag}",
                                     expected_seq=expected_seq)

    def send(self, request):
        """Plays; retried with the same request on a transient failure."""
        return api.call(self.table.Play, request, self.player.token, retry=True,
                        on_retry=lambda err: self.player.log(f"Play {api.describe(err)}: retrying"))


def queue(player, clients, run_id):
    """Enqueues for the player's game and watches the ticket; returns the assignment."""
    request = matchmaking_pb2.EnqueueRequest(settings=player.game.settings,
                                             request_id=f"{run_id}.{player.player_id}.enqueue")
    # A retry with the same request id returns the same ticket.
    ticket_id = api.call(clients.matchmaking.Enqueue, request, player.token, retry=True).ticket_id
    player.log(f"enqueued, ticket {ticket_id}")
    # Watching again after a broken stream starts with the ticket's current state.
    for attempt in range(MAX_WATCHES):
        try:
            return _watch(player, clients, ticket_id)
        except grpc.RpcError as err:
            if err.code() != grpc.StatusCode.UNAVAILABLE or attempt == MAX_WATCHES - 1:
                raise
            player.log(f"WatchTicket {api.describe(err)}: watching again")
    raise AssertionError("unreachable: the last watch returns or raises")


def _watch(player, clients, ticket_id):
    final = None
    request = matchmaking_pb2.WatchTicketRequest(ticket_id=ticket_id)
    updates = clients.matchmaking.WatchTicket(request, metadata=api.bearer(player.token),
                                              wait_for_ready=True)
    for update in updates:
        if update.state == matchmaking_pb2.TicketUpdate.QUEUED:
            player.log(f"queued: {update.queue_size} waiting, "
                       f"expected wait {update.expected_wait_seconds} s")
        else:
            final = update
    # After a final state the server ends the stream with OK.
    if final is None:
        raise ProtocolError(f"WatchTicket {ticket_id} ended without a final state")
    if final.state != matchmaking_pb2.TicketUpdate.MATCHED:
        state = matchmaking_pb2.TicketUpdate.State.Name(final.state)
        raise RuntimeError(f"ticket {ticket_id} {state}")
    return final.assignment


def play(player, clients, assignment, probes):
    """Plays the seat until the game's result; returns the Outcome. probes (ErrorDetailProbes) may
    send its refused moves at one of the seat's turns first."""
    started = time.monotonic()
    seat = Seat(player, clients.table(assignment.table_endpoint), assignment)
    names, result, moves, last_seq = None, None, 0, None
    seen = {}  # every move the seat was offered, by its bytes: what the probes pick from
    for update in table_stream.follow(seat.table, assignment.table_id, assignment.seat_token,
                                      player.token, player.log):
        last_seq = update.seq
        kind = update.WhichOneof("update")
        if kind == "snapshot":
            if names is None:
                names = {s.seat: s.player_id or f"bot:{s.bot_kind}" for s in update.snapshot.seats}
                to_act = ", ".join(map(str, update.snapshot.view.to_act)) or "-"
                player.log(f"snapshot at seq {update.seq}: seats {_seats_text(names)}; "
                           f"to act: {to_act}")
            if update.snapshot.over:
                result = update.snapshot.result
        elif kind == "move" and update.move.HasField("result"):
            result = update.move.result
        elif kind == "seat_change":
            change = update.seat_change
            kind_name = table_pb2.SeatChange.Kind.Name(change.kind)
            player.log(f"seq {update.seq}: seat {change.seat} {kind_name}")
        view, legal = table_stream.state_after(update)
        if view.over:
            continue
        # legal_moves, not to_act, says whether the seat may act: to_act is whose turn it is, and
        # a move allowed out of turn (classic okey's gosterme) is listed for its seat only.
        if not legal:
            if view.seat in view.to_act:
                raise ProtocolError(f"seat {view.seat}'s turn at seq {update.seq}, "
                                    "but the table lists no legal moves")
            continue
        if probes is not None:
            probes.at_turn(seat, update.seq, legal, seen)
        for move in legal:
            seen.setdefault(move.SerializeToString(deterministic=True), move)
        if _play(seat, player.rng.choice(legal), update.seq, len(legal)):
            moves += 1
    if result is None or names is None:
        raise ProtocolError("the table stream ended without a result")
    ended = time.monotonic()
    return Outcome(assignment=assignment, names=names, result=result, moves=moves,
                   final_seq=last_seq, seconds=ended - started, ended=ended)


def _play(seat, move, seq, choices):
    """Plays move at seq; False when the table had moved on (the stream brings what changed)."""
    request = seat.request(move, expected_seq=seq)
    try:
        response = seat.send(request)
    except grpc.RpcError as err:
        if err.code() != grpc.StatusCode.ABORTED:
            raise
        seat.player.log(f"Play at seq {seq}: {api.describe(err)}; deciding again from the stream")
        return False
    if response.seq != seq + 1:
        raise ProtocolError(f"Play expecting seq {seq} was played as seq {response.seq}")
    seat.played.append((request.request_id, response.seq, move))
    if seat.player.show_moves:
        seat.player.log(f"seq {response.seq}: {message_text(move)} (one of {choices} legal)")
    return True


def _seats_text(names):
    return ", ".join(f"{seat} {name}" for seat, name in sorted(names.items()))
