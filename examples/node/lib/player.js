// One player's way through a game, as docs/api.md section 2 lays it out: Enqueue, WatchTicket
// until MATCHED, Connect to the assigned table, and Play from its own view whenever its seat is to
// act, until the game's result arrives.

import { setTimeout as sleep } from 'node:timers/promises';
import {
  Code, ConnectError, TableState, TicketUpdate_State, decodeError, findBid, findChallenge,
  findDeclarePutana, liarsDiceBidMove,
} from '@kahve/client';
import { candidateMoves } from './strategy.js';
import { moveText, resultText, updateLines } from './format.js';

// 2-player Liar's dice with the default 5 dice each, as tests/services/matchmaking queue for.
const SETTINGS = { ruleset: { case: 'liarsDice', value: { players: 2 } } };

// Enqueue (with a request id the library makes, so a retry never queues twice), then watch the
// ticket until it is matched. A broken watch is opened again, starting with the ticket's state.
export async function queue(player, log) {
  const ticketId = await player.client.enqueue(SETTINGS);
  log(`enqueued, ticket ${ticketId}`);
  return player.client.waitForAssignment(ticketId, {
    onUpdate(update) {
      if (update.state === TicketUpdate_State.QUEUED) {
        log(`queued: ${update.queueSize} waiting, expected wait ${update.expectedWaitSeconds}s`);
      }
    },
    onStatus(status) {
      if (status.state === 'retrying') log(`WatchTicket ${Code[status.error.code]}: watching again`);
    },
  });
}

// Plays the seat to the end of the game; returns the result and the seats of the first snapshot.
// ctx: player, assignment, shared (state of the whole run), log, debug (lines shown only with
// --verbose), showUpdates (print this seat's stream), moveDelayMs.
export async function play(ctx) {
  const { player, assignment, log, showUpdates } = ctx;
  const seat = player.client.seat(assignment);
  // The stream opened with_view carries the seat's view and legal moves with every update, so the
  // client needs no GetView per move; TableState folds the updates into what the seat sees now.
  // On UNAVAILABLE or a broken stream it reconnects with after_seq: no update is missed or repeated.
  const state = new TableState();
  let seats = null;
  const names = [];
  const stream = seat.stream({
    withView: true,
    onStatus(status) {
      if (status.state === 'retrying') {
        log(`Connect ${Code[status.error.code]}: reconnecting after seq ${status.afterSeq} in ${status.delayMs} ms`);
      }
    },
  });
  for await (const update of stream) {
    state.apply(update);
    if (update.update.case === 'snapshot' && seats === null) {
      seats = update.update.value.seats;
      for (const s of seats) names[s.seat] = s.playerId;
    }
    if (showUpdates) for (const line of updateLines(update, names)) log(line);
    if (state.mayAct(assignment.seat) && state.legalMoves.length > 0) {
      if (ctx.moveDelayMs > 0) await sleep(ctx.moveDelayMs);
      await playTurn(ctx, seat, state);
    }
  }
  // The stream ends with OK after the move that carries the result.
  if (!state.result) throw new Error(`${player.id}: the stream ended without a result`);
  log(`game over: ${resultText(state.result)}`);
  return { result: state.result, seats };
}

// The strategy's moves that the seat's legal moves list, in the strategy's order of preference.
function chosenMoves(view, legalMoves) {
  const moves = [];
  for (const candidate of candidateMoves(view)) {
    const move = candidate.bid ? findBid(legalMoves, candidate.bid.quantity, candidate.bid.face)
      : candidate.challenge ? findChallenge(legalMoves)
        : findDeclarePutana(legalMoves);
    if (move) moves.push(move);
  }
  // The strategy never runs out of ideas, but should it, the list always holds a legal move.
  return moves.length > 0 ? moves : [legalMoves[0]];
}

// Plays one move at the state's seq.
async function playTurn(ctx, seat, state) {
  const { player, shared, log, debug } = ctx;
  const view = state.view.ruleset.value;
  const moves = chosenMoves(view, state.legalMoves);
  if (shared.probe && shared.probe.move === null) {
    // Once per run, on the game's first turn: a bid above the dice on the table, which the rules
    // refuse, to show how a refusal arrives and that the client goes on with a legal move.
    shared.probe.move = liarsDiceBidMove(view.diceOnTable + 1, 2);
    moves.unshift(shared.probe.move);
  }
  for (const move of moves) {
    try {
      // Refused with ABORTED if the table moved on since the view we decided from; the library
      // sends the move under a fresh request id, which a retry after a lost answer reuses.
      const response = await seat.play(move, { expectedSeq: state.seq });
      debug(`played ${moveText(move)} -> seq ${response.seq}`);
      return;
    } catch (err) {
      if (err instanceof ConnectError && err.code === Code.Aborted) return; // the stream brings the news
      const refusal = decodeError(err);
      if (!refusal.details.playRejection) throw err;
      log(`refused ${moveText(move)}: ${refusal.codeName} ${refusal.reasonName} "${refusal.message}" ` +
        `(table at seq ${refusal.details.playRejection.seq})`);
      if (move === shared.probe.move) shared.probe.rejection = refusal;
      if (refusal.reasonName === 'NOT_YOUR_TURN' || refusal.reasonName === 'GAME_OVER') return;
      // Any other reason is about this move: try the next one.
    }
  }
  throw new Error(`${player.id}: every chosen move was refused at seq ${state.seq}`);
}
