"""The kahve API as a Python client sees it.

The kahve.v1 modules are generated from the repository's proto/ by protoc with gRPC's Python plugin
(README.md); run.sh puts them on PYTHONPATH. Every call carries the player's JWT. A refused call's
details (PlayRejection, StaleSeq) are decoded from the grpc-status-details-bin trailer.
"""

import threading
import time

import grpc

# The generated modules; the other modules of this package import them from here, so a missing
# generation fails in one place with one message.
try:
    from kahve.v1 import (engine_pb2, liars_dice_pb2, matchmaking_pb2, matchmaking_pb2_grpc,
                          mexican_train_pb2, okey101_pb2, okey51_pb2, okey_classic_pb2, rating_pb2,
                          rating_pb2_grpc, table_pb2, table_pb2_grpc)
except ImportError as err:
    raise SystemExit(f"play.py: {err}: generate the kahve.v1 Python code with protoc and put it on "
                     "PYTHONPATH (examples/python/README.md)") from err

__all__ = [
    "engine_pb2", "liars_dice_pb2", "matchmaking_pb2", "mexican_train_pb2", "okey101_pb2",
    "okey51_pb2", "okey_classic_pb2", "rating_pb2", "table_pb2",
    "ProtocolError", "Clients", "bearer", "call", "describe", "server_version", "status_details",
    "detail_of",
]

# A stuck server fails the run instead of hanging it.
UNARY_DEADLINE_SECONDS = 10

# Worth another try with the same request (docs/api.md section 4): the server was away (shutting
# down, restarting, overloaded), or the answer was lost (our deadline passed, or a server shutting
# down cancelled the call; this client cancels no unary call itself). Only for calls that are
# safe to repeat: reads, and writes with a request id.
TRANSIENT = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED,
                       grpc.StatusCode.CANCELLED})
MAX_RETRIES = 6

# The trailer of gRPC's rich error model (docs/api.md section 4).
DETAILS_TRAILER = "grpc-status-details-bin"
# The detail kinds this client knows, by full name: an Any's type URL ends in it. More kinds may
# be added to the API; unknown ones are skipped.
DETAIL_TYPES = {cls.DESCRIPTOR.full_name: cls
                for cls in (table_pb2.PlayRejection, table_pb2.StaleSeq,
                            table_pb2.RequestIdPlayed)}
# The metadata entry naming the server's version (docs/api.md section 9).
VERSION_METADATA = "kahve-server-version"


class ProtocolError(Exception):
    """The server broke a promise of the API (a lost update, a status at odds with itself)."""


def bearer(token):
    """The call metadata that signs a call in as the token's player (docs/api.md section 1)."""
    return (("authorization", f"Bearer {token}"),)


class Clients:
    """One channel per endpoint, shared by the threads of every player: each call carries its own
    JWT, so one connection serves them all."""

    def __init__(self, matchmaking, rating):
        self._lock = threading.Lock()
        self._channels = {}
        self.matchmaking = matchmaking_pb2_grpc.MatchmakingServiceStub(self._channel(matchmaking))
        self.rating = rating_pb2_grpc.RatingServiceStub(self._channel(rating))

    def table(self, endpoint):
        """A TableService stub for the table host an assignment names."""
        return table_pb2_grpc.TableServiceStub(self._channel(endpoint))

    def close(self):
        with self._lock:
            for channel in self._channels.values():
                channel.close()
            self._channels.clear()

    def _channel(self, endpoint):
        with self._lock:
            if endpoint not in self._channels:
                self._channels[endpoint] = grpc.insecure_channel(endpoint)
            return self._channels[endpoint]


def call(method, request, token, retry=False, on_retry=None):
    """One unary call with a deadline. With retry, a transient failure is retried with back-off
    (the same request, so the same request id); on_retry(err) hears of each retry.

    wait_for_ready: a call made while the channel reconnects (a table host restarting) waits for
    it, up to the deadline. Without it, grpcio 1.51 failed such calls at once with the last
    connection error ("Connection refused") for several seconds after the host was back."""
    for attempt in range(MAX_RETRIES + 1):
        try:
            return method(request, metadata=bearer(token), timeout=UNARY_DEADLINE_SECONDS,
                          wait_for_ready=True)
        except grpc.RpcError as err:
            if not retry or err.code() not in TRANSIENT or attempt == MAX_RETRIES:
                raise
            if on_retry is not None:
                on_retry(err)
            time.sleep(0.1 * 2 ** attempt)
    raise AssertionError("unreachable: the last attempt returns or raises")


def server_version(method, request, token):
    """The kahve version the server answering a unary call reports: from the call's headers, or
    its trailers when it was refused before sending any (docs/api.md section 9)."""
    try:
        _, done = method.with_call(request, metadata=bearer(token),
                                   timeout=UNARY_DEADLINE_SECONDS, wait_for_ready=True)
    except grpc.RpcError as err:
        done = err
    for metadata in (done.initial_metadata(), done.trailing_metadata()):
        found = next((value for key, value in metadata or () if key == VERSION_METADATA), None)
        if found is not None:
            return found
    raise ProtocolError(f"the server sent no {VERSION_METADATA}")


def describe(err):
    """'CODE: message' of a failed call."""
    return f"{err.code().name}: {err.details()}"


def status_details(err):
    """The detail messages a failed call carries, decoded, in order.

    The grpc-status-details-bin trailer is a serialized kahve.v1.RpcStatus (google.rpc.Status field
    for field) that repeats the call's code and message; each detail is a google.protobuf.Any with
    the type URL type.googleapis.com/kahve.v1.<Name>. Details of kinds not in DETAIL_TYPES are left
    out.
    """
    trailers = err.trailing_metadata() or ()
    raw = next((value for key, value in trailers if key == DETAILS_TRAILER), None)
    if raw is None:
        return []
    status = table_pb2.RpcStatus.FromString(raw)
    if status.code != err.code().value[0] or status.message != err.details():
        raise ProtocolError(f"the details trailer says {status.code} {status.message!r}, "
                            f"the call {describe(err)}")
    details = []
    for packed in status.details:
        cls = DETAIL_TYPES.get(packed.type_url.rpartition("/")[2])
        if cls is None:
            continue
        detail = cls()
        if not packed.Unpack(detail):
            raise ProtocolError(f"a detail of type {packed.type_url} does not parse")
        details.append(detail)
    return details


def detail_of(err, cls):
    """The first detail of type cls that a failed call carries, or None."""
    return next((d for d in status_details(err) if isinstance(d, cls)), None)
