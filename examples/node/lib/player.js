'use strict';
// One player's way through a game, as docs/api.md section 2 lays it out: Enqueue, WatchTicket
// until MATCHED, Connect to the assigned table, and Play from its own view whenever its seat is to
// act, until the game's result arrives.

const { grpc, unary, unaryRetrying, withCodeName, playRejection, bearer } = require('./api');
const { followTable } = require('./table_stream');
const { candidateMoves } = require('./strategy');
const { moveText, resultText, updateLines } = require('./format');

// 2-player Liar's dice with the default 5 dice each, as tests/services/matchmaking queue for.
const SETTINGS = { liarsDice: { players: 2 } };

// Enqueue, then watch the ticket until it is matched. Watching again after a broken stream starts
// with the ticket's current state, assignment included.
async function queue(player, mm, log) {
  const { ticketId } = await unary(mm, 'Enqueue',
    { settings: SETTINGS, requestId: `${player.id}-enqueue-${player.runId}` }, player.token);
  log(`enqueued, ticket ${ticketId}`);
  for (let attempt = 0; ; attempt++) {
    try {
      return await watchTicket(player, mm, ticketId, log);
    } catch (err) {
      if (err.code !== grpc.status.UNAVAILABLE || attempt >= 5) throw err;
      log(`WatchTicket ${err.codeName}: watching again`);
    }
  }
}

function watchTicket(player, mm, ticketId, log) {
  return new Promise((resolve, reject) => {
    let final = null;
    const call = mm.WatchTicket({ ticketId }, bearer(player.token));
    call.on('data', (update) => {
      if (update.state === 'QUEUED') {
        log(`queued: ${update.queueSize} waiting, expected wait ${update.expectedWaitSeconds}s`);
      } else {
        final = update;
      }
    });
    call.on('error', (err) => reject(withCodeName(err, 'WatchTicket')));
    // After a final state the server ends the stream with OK.
    call.on('end', () => {
      if (final === null) reject(new Error('WatchTicket ended without a final state'));
      else if (final.state !== 'MATCHED') reject(new Error(`ticket ${ticketId} ${final.state}`));
      else resolve(final.assignment);
    });
  });
}

// Plays the seat to the end of the game; returns the result and the seats of the first snapshot.
// ctx: player, assignment, tableClient, shared (state of the whole run), log, debug (lines shown
// only with --verbose), showUpdates (print this seat's stream), moveDelayMs.
async function play(ctx) {
  const { player, assignment, tableClient, log, showUpdates } = ctx;
  const { tableId, seatToken, seat } = assignment;
  let seats = null;
  let result = null;
  const names = [];
  const stream = followTable({
    client: tableClient, tableId, seatToken, token: player.token,
    onUpdate(update) {
      if (update.update === 'snapshot') {
        seats = update.snapshot.seats;
        for (const s of seats) names[s.seat] = s.playerId;
        if (update.snapshot.over) result = update.snapshot.result;
      } else if (update.update === 'move' && update.move.result) {
        result = update.move.result;
      }
      if (showUpdates) for (const line of updateLines(update, names)) log(line);
    },
    onReconnect: (err, afterSeq) => log(`Connect ${err.codeName}: reconnecting after seq ${afterSeq}`),
  });

  try {
    let want = 0; // the seq the stream must reach before we look at the table again
    for (;;) {
      await stream.waitFor(want);
      if (result !== null || stream.finished) break;
      const { view, seq } = await unaryRetrying(tableClient, 'GetView', { tableId, seatToken },
        player.token, (err) => log(`GetView ${err.codeName}: retrying`));
      const at = Number(seq);
      if (view.over) break;
      if (!view.toAct.includes(seat)) {
        want = at + 1; // not our turn: wait for the next change
        continue;
      }
      if (ctx.moveDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, ctx.moveDelayMs));
      want = await playTurn(ctx, view, at);
    }
    // The move that ends the game carries the result, and then the stream ends with OK.
    await stream.waitFor(Number.MAX_SAFE_INTEGER);
  } finally {
    stream.close();
  }
  if (result === null) throw new Error(`${player.id}: the stream ended without a result`);
  log(`game over: ${resultText(result)}`);
  return { result, seats };
}

// Plays one move at seq `at`; returns the seq to wait for before looking again.
async function playTurn(ctx, view, at) {
  const { player, assignment, tableClient, shared, log, debug } = ctx;
  const { tableId, seatToken } = assignment;
  const candidates = candidateMoves(view.liarsDice);
  if (shared.probe && shared.probe.move === null) {
    // Once per run, on the game's first turn: a bid above the dice on the table, which the rules
    // refuse, to show how a refusal arrives and that the client recovers by choosing another move.
    shared.probe.move = { bid: { quantity: view.liarsDice.diceOnTable + 1, face: 2 } };
    candidates.unshift(shared.probe.move);
  }
  for (let i = 0; i < candidates.length; i++) {
    const move = { liarsDice: candidates[i] };
    const request = {
      tableId, seatToken, move,
      // One id per move we decide on.
      requestId: `${player.id}-${tableId}-${at}-${i}`,
      // Refused with ABORTED if the table moved on since the view we decided from.
      expectedSeq: String(at),
    };
    try {
      // A retry with the same request id cannot play the move twice.
      const response = await unaryRetrying(tableClient, 'Play', request, player.token,
        (err) => log(`Play ${err.codeName}: retrying ${request.requestId}`));
      debug(`played ${moveText(move)} -> seq ${response.seq}`);
      return Number(response.seq);
    } catch (err) {
      if (err.code === grpc.status.ABORTED) return at + 1;
      const rejection = playRejection(err);
      if (rejection === null) throw err;
      const reason = rejection.rejection.reason;
      log(`refused ${moveText(move)}: ${err.codeName} ${reason} "${rejection.rejection.message}" ` +
        `(table at seq ${rejection.seq})`);
      if (shared.probe && candidates[i] === shared.probe.move) shared.probe.rejection = rejection;
      if (reason === 'NOT_YOUR_TURN' || reason === 'GAME_OVER') return at + 1;
      // Any other reason is about this move: try the next candidate.
    }
  }
  throw new Error(`${player.id}: every candidate move was refused at seq ${at}`);
}

module.exports = { queue, play };
