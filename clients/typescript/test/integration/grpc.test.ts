// The library over gRPC against a real stack (PostgreSQL and `kahve serve --all`, started by
// scripts/serve-stack.sh): a matchmade game played to its recorded result, every structured error
// detail decoded from real refusals, rate limits waited out, and a stream resumed by after_seq.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  Code,
  ConnectError,
  RejectionReason,
  TableState,
  TableStream,
  decodeError,
  liarsDiceBidMove,
  newRequestId,
  type KahveClient,
} from "@kahve/client";
import { createNodeClient } from "@kahve/client/node";
import { consecutive, playSeat, queueAll, startStack, type Stack } from "@kahve/client/testing";

let stack: Stack;
const client = (player: string, options: { rateLimitRetry?: false } = {}): KahveClient =>
  createNodeClient({ matchmaking: stack.matchmaking, rating: stack.rating, table: stack.table, token: stack.token(player), ...options });

before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.stop();
});

test("two players queue, play Liar's dice from their legal moves and find the match rated", { timeout: 60_000 }, async () => {
  const players = [client("grpc-ana"), client("grpc-bora")];
  const assignments = await queueAll(players);
  assert.equal(assignments[0]!.tableId, assignments[1]!.tableId);
  const seats = await Promise.all(players.map((c, i) => playSeat(c, assignments[i]!)));
  assert.deepEqual(seats[0]!.result, seats[1]!.result);
  for (const s of seats) assert.ok(consecutive(s.updates), "seqs are consecutive");
  const match = await players[0]!.recordedMatch(assignments[0]!.matchId);
  assert.equal(match.rated, true);
  assert.deepEqual(match.participants.map((p) => p.playerId).sort(), ["grpc-ana", "grpc-bora"]);
});

test("a refused move decodes to its PlayRejection, a stale one to StaleSeq; a dry run changes nothing", { timeout: 60_000 }, async () => {
  const ana = client("grpc-practice");
  const seat = await ana.practiceTable({ ruleset: { case: "liarsDice", value: { players: 3 } } });
  const state = new TableState();
  const stream = seat.stream({ withView: true });
  for await (const update of stream) {
    state.apply(update);
    if (state.mayAct(seat.ref.seat) && state.legalMoves.length > 0) break;
  }
  stream.close();
  const seq = state.seq;
  assert.ok(seq !== undefined && state.view?.ruleset.case === "liarsDice", "the practice seat got its turn");
  const dice = state.view.ruleset.value.diceOnTable;

  const tooMany = liarsDiceBidMove(dice + 1, 2);
  const preview = await seat.preview(tooMany);
  assert.equal(preview.legal, false);
  const refused = await seat.play(tooMany, { expectedSeq: seq }).catch((e: unknown) => decodeError(e));
  assert.ok(!("seq" in refused && typeof refused.seq === "bigint"), "the move was refused");
  const error = refused as ReturnType<typeof decodeError>;
  assert.equal(error.code, Code.FailedPrecondition);
  assert.equal(error.details.playRejection?.rejection?.reason, RejectionReason.LIARS_DICE_QUANTITY_ABOVE_DICE);
  assert.equal(error.reasonName, "LIARS_DICE_QUANTITY_ABOVE_DICE");
  assert.equal(error.details.playRejection?.seq, seq);

  const legal = state.legalMoves[0]!;
  assert.equal((await seat.preview(legal)).legal, true);
  // Stale either way: behind the table, or (as here, the table may be at seq 0) ahead of it.
  const stale = decodeError(await seat.play(legal, { expectedSeq: seq + 5n }).catch((e: unknown) => e));
  assert.equal(stale.code, Code.Aborted, `${stale.codeName}: ${stale.message}`);
  assert.equal(stale.details.staleSeq?.tableSeq, seq);
  assert.equal(stale.details.staleSeq?.expectedSeq, seq + 5n);
  const played = await seat.play(legal, { expectedSeq: seq });
  assert.equal(played.seq, seq + 1n);
  await seat.resign();
});

test("matchmaking refusals carry ActiveTicket, RequestIdInUse and CurrentParty", { timeout: 60_000 }, async () => {
  const cem = client("grpc-cem");
  const requestId = newRequestId("cem");
  const ticket = await cem.enqueue({ ruleset: { case: "liarsDice", value: { players: 4 } } }, { requestId });
  try {
    const other = decodeError(await cem.enqueue({ ruleset: { case: "liarsDice", value: { players: 3 } } }, { requestId })
      .catch((e: unknown) => e));
    assert.equal(other.code, Code.AlreadyExists);
    assert.deepEqual([other.details.requestIdInUse?.requestId, other.details.requestIdInUse?.ticketId], [requestId, ticket]);
    const second = decodeError(await cem.enqueue({ ruleset: { case: "liarsDice", value: { players: 4 } } })
      .catch((e: unknown) => e));
    assert.equal(second.code, Code.AlreadyExists);
    assert.deepEqual([second.details.activeTicket?.playerId, second.details.activeTicket?.ticketId], ["grpc-cem", ticket]);
  } finally {
    await cem.matchmaking.cancelTicket({ ticketId: ticket });
  }
  const party = await cem.matchmaking.createParty({});
  const again = decodeError(await cem.matchmaking.createParty({}).catch((e: unknown) => e));
  assert.equal(again.code, Code.AlreadyExists);
  assert.equal(again.details.currentParty?.partyId, party.partyId);
  await cem.matchmaking.leaveParty({ partyId: party.partyId });
});

test("a flood past the call rate is refused with RetryAfter, and waited out by the interceptor", { timeout: 60_000 }, async () => {
  const raw = client("grpc-flood", { rateLimitRetry: false });
  const outcomes = await Promise.all(Array.from({ length: 400 }, () =>
    raw.matchmaking.getQueueStats({}).then(() => undefined, (e: unknown) => decodeError(e))));
  const refused = outcomes.filter((o) => o !== undefined);
  assert.ok(refused.length > 0, "some calls were refused");
  for (const r of refused) {
    assert.equal(r!.code, Code.ResourceExhausted);
    assert.equal(r!.details.retryAfter?.limit, "max_calls_per_second");
    assert.ok(r!.retryAfterMs !== undefined && r!.retryAfterMs > 0 && r!.retryAfterMs <= 2000);
    assert.match(r!.cause.metadata.get("grpc-retry-pushback-ms") ?? "", /^\d+$/);
  }
  // The same identity, its allowance spent (calls until one is refused), through the interceptor:
  // 40 calls at once are paced by the refusals' hints, and every one gets its answer.
  let waits = 0;
  const patient = createNodeClient({
    matchmaking: stack.matchmaking, token: stack.token("grpc-flood"), rateLimitRetry: { onRetry: () => waits++ },
  });
  while (await raw.matchmaking.getQueueStats({}).then(() => true, () => false));
  await Promise.all(Array.from({ length: 40 }, () => patient.matchmaking.getQueueStats({})));
  assert.ok(waits > 0, "the interceptor waited out refusals");
});

test("a stream resumed with after_seq starts right after it, with no gap and no repeat", { timeout: 60_000 }, async () => {
  const dan = client("grpc-dan");
  const seat = await dan.practiceTable({ ruleset: { case: "liarsDice", value: { players: 2 } } });
  // Up to the seat's turn, then one move of its own, so the table has an update after seq 0.
  const state = new TableState();
  const opening = seat.stream({ withView: true });
  for await (const update of opening) {
    state.apply(update);
    if (state.mayAct(seat.ref.seat) && state.legalMoves.length > 0) break;
  }
  opening.close();
  const played = await seat.play(state.legalMoves[0]!, { expectedSeq: state.seq });
  const resumed = new TableStream({
    client: seat.table, tableId: seat.ref.tableId, seatToken: seat.ref.seatToken, afterSeq: played.seq - 1n,
  });
  for await (const update of resumed) {
    assert.notEqual(update.update.case, "snapshot", "the kept updates, not a snapshot");
    assert.equal(update.seq, played.seq);
    break;
  }
  resumed.close();
  await seat.resign();
  await assert.rejects(
    (async () => {
      for await (const _ of new TableStream({ client: seat.table, tableId: "t-no-such-table", seatToken: seat.ref.seatToken })) break;
    })(),
    (e: unknown) => e instanceof ConnectError && (e.code === Code.NotFound || e.code === Code.PermissionDenied),
  );
});
