"""Three refused moves, once per run, to show how error details arrive and how they decode.

At a turn of a Liar's dice seat (the ruleset whose legal moves are all listed, docs/api.md section
7), before its real move:

- a Play of a legal move with expected_seq one behind the table: ABORTED with a kahve.v1.StaleSeq
  detail naming the table's seq and the one sent;
- a Play of a move the seat was offered at an earlier turn and is not offered now:
  FAILED_PRECONDITION with a kahve.v1.PlayRejection detail, the reason the rules refuse it and
  the table's seq;
- a Play of another move under the request id of a move the seat played before: ALREADY_EXISTS
  with a kahve.v1.RequestIdPlayed detail naming that earlier move and the seq it was played as.

All three are decoded from the grpc-status-details-bin trailer (api.status_details) and checked. A
refusal changes nothing, so the seat's real move then plays at the same expected_seq.
"""

import threading

import grpc

from kahve_example import api
from kahve_example.api import ProtocolError, engine_pb2, table_pb2
from kahve_example.format import detail_text, message_text

RULESET = "liars_dice"


class ErrorDetailProbes:
    """Sends each probe once per run, at the first turn of any RULESET seat that allows it; thread
    safe. shown maps a detail's type name to the detail decoded."""

    def __init__(self):
        self._lock = threading.Lock()
        self._claimed = set()
        self.shown = {}

    def at_turn(self, seat, seq, legal, seen):
        """Called at each turn of a seat, before it plays, with the seq the turn is at, the legal
        moves and every move offered at the seat's earlier turns (bytes -> Move)."""
        if seat.player.game.ruleset != RULESET:
            return
        # At seq 2 or later, so that neither seq the detail names is 0 (the text format leaves
        # zeros out).
        if seq >= 2 and self._claim("StaleSeq"):
            self._stale_seq(seat, seq, legal[0])
        offered = {move.SerializeToString(deterministic=True) for move in legal}
        gone = next((move for key, move in seen.items() if key not in offered), None)
        if gone is not None and self._claim("PlayRejection"):
            self._play_rejection(seat, seq, gone)
        if seat.played and self._claim("RequestIdPlayed"):
            self._request_id_played(seat, seq, legal)

    def missing(self):
        """The probes not sent (their turn never came)."""
        return sorted({"StaleSeq", "PlayRejection", "RequestIdPlayed"} - set(self.shown))

    def _claim(self, name):
        with self._lock:
            if name in self._claimed:
                return False
            self._claimed.add(name)
            return True

    def _refusal(self, seat, request):
        """The error of a Play that must be refused."""
        try:
            seat.send(request)
        except grpc.RpcError as err:
            return err
        raise ProtocolError(f"the table accepted {message_text(request.move)}, "
                            "which it must refuse")

    def _stale_seq(self, seat, seq, move):
        log = seat.player.log
        err = self._refusal(seat, seat.request(move, expected_seq=seq - 1, tag=".stale"))
        detail = api.detail_of(err, table_pb2.StaleSeq)
        log(f"probe: Play {message_text(move)} expecting seq {seq - 1}, the table is at {seq}")
        log(f"probe:   -> {api.describe(err)}")
        log(f"probe:   -> detail {detail_text(detail) if detail else 'none'}")
        _check(err.code() == grpc.StatusCode.ABORTED, f"ABORTED, not {err.code().name}")
        _check(detail is not None, "a StaleSeq detail")
        _check(detail.table_seq == seq and detail.expected_seq == seq - 1,
               f"StaleSeq names table seq {seq} and expected seq {seq - 1}")
        self.shown["StaleSeq"] = detail

    def _play_rejection(self, seat, seq, move):
        log = seat.player.log
        err = self._refusal(seat, seat.request(move, expected_seq=seq, tag=".refused"))
        detail = api.detail_of(err, table_pb2.PlayRejection)
        log(f"probe: Play {message_text(move)} at seq {seq}: offered at an earlier turn, not now")
        log(f"probe:   -> {api.describe(err)}")
        log(f"probe:   -> detail {detail_text(detail) if detail else 'none'}")
        # The move was legal once, so it is well-formed: the state forbids it now.
        _check(err.code() == grpc.StatusCode.FAILED_PRECONDITION,
               f"FAILED_PRECONDITION, not {err.code().name}")
        _check(detail is not None, "a PlayRejection detail")
        _check(detail.seq == seq, f"PlayRejection names the table's seq {seq}")
        _check(detail.rejection.reason != engine_pb2.REJECTION_REASON_UNSPECIFIED,
               "a rejection reason")
        self.shown["PlayRejection"] = detail


    def _request_id_played(self, seat, seq, legal):
        log = seat.player.log
        request_id, played_seq, played = seat.played[-1]
        bytes_played = played.SerializeToString(deterministic=True)
        other = next(m for m in legal if m.SerializeToString(deterministic=True) != bytes_played)
        request = seat.request(other, expected_seq=seq)
        request.request_id = request_id
        err = self._refusal(seat, request)
        detail = api.detail_of(err, table_pb2.RequestIdPlayed)
        log(f"probe: Play {message_text(other)} with request id {request_id}, which played "
            f"{message_text(played)} as seq {played_seq}")
        log(f"probe:   -> {api.describe(err)}")
        log(f"probe:   -> detail {detail_text(detail) if detail else 'none'}")
        _check(err.code() == grpc.StatusCode.ALREADY_EXISTS,
               f"ALREADY_EXISTS, not {err.code().name}")
        _check(detail is not None, "a RequestIdPlayed detail")
        _check(detail.request_id == request_id and detail.seq == played_seq and
               detail.move.SerializeToString(deterministic=True) == bytes_played,
               f"RequestIdPlayed names {request_id}, seq {played_seq} and the move it played")
        self.shown["RequestIdPlayed"] = detail


def _check(ok, what):
    if not ok:
        raise ProtocolError(f"probe: expected {what}")
