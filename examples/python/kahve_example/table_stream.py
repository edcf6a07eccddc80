"""One seat's TableService.Connect stream, opened with_view, as a generator of updates in seq order.

Within a stream the seqs are consecutive; a snapshot (the first message, or after a resume that
came too late for the kept updates) replaces everything. On UNAVAILABLE (the host shuts down) or
RESOURCE_EXHAUSTED (we read too slowly) it reconnects with after_seq, as docs/api.md section 5
asks, so nothing is missed or seen twice. It ends when the server ends the stream with OK: after
the game's result.
"""

import time

import grpc

from kahve_example.api import ProtocolError, bearer, describe, table_pb2

RECONNECTABLE = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.RESOURCE_EXHAUSTED})
MAX_RECONNECTS = 8


def follow(stub, table_id, seat_token, token, log):
    """Yields every TableUpdate of the seat in seq order, reconnecting as the module says."""
    last_seq = None  # the last seq yielded
    reconnects = 0
    while True:
        request = table_pb2.ConnectRequest(table_id=table_id, seat_token=seat_token, with_view=True)
        if last_seq is not None:
            request.after_seq = last_seq
        # Waits for the channel to reconnect, as api.call says.
        stream = stub.Connect(request, metadata=bearer(token), wait_for_ready=True)
        try:
            for update in stream:
                is_snapshot = update.WhichOneof("update") == "snapshot"
                if not is_snapshot and last_seq is not None and update.seq != last_seq + 1:
                    raise ProtocolError(f"Connect: update {update.seq} after {last_seq}: "
                                        "an update was lost")
                last_seq = update.seq
                reconnects = 0
                yield update
            return
        except grpc.RpcError as err:
            if err.code() not in RECONNECTABLE or reconnects >= MAX_RECONNECTS:
                raise
            log(f"Connect {describe(err)}: reconnecting after seq {last_seq}")
            time.sleep(0.1 * 2 ** reconnects)
            reconnects += 1
        finally:
            stream.cancel()


def state_after(update):
    """(view, legal_moves) of the seat after an update. On a stream opened with_view every update
    carries them, those of a resume too (docs/api.md section 7), so an empty legal_moves means the
    seat has no move then."""
    if update.WhichOneof("update") == "snapshot":
        return update.snapshot.view, update.snapshot.legal_moves
    if not update.HasField("view"):
        raise ProtocolError(f"Connect with_view: update {update.seq} carries no view")
    return update.view, update.legal_moves
