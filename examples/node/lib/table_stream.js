'use strict';
// Follows one seat's TableService.Connect stream. Every update goes to onUpdate in seq order; the
// game loop waits on waitFor(seq) instead of polling or sleeping. On UNAVAILABLE (the host shuts
// down) or RESOURCE_EXHAUSTED (we read too slowly) it reconnects with after_seq, as docs/api.md
// section 5 asks, so nothing is missed or seen twice.

const { bearer, withCodeName, grpc } = require('./api');

const RECONNECTABLE = new Set([grpc.status.UNAVAILABLE, grpc.status.RESOURCE_EXHAUSTED]);
const MAX_RECONNECTS = 8;

function followTable({ client, tableId, seatToken, token, onUpdate, onReconnect = () => {} }) {
  let lastSeq = null; // the last seq processed; seqs fit a JS number long before 2^53
  let finished = false; // the stream ended with OK: the game is over
  let failure = null;
  let waiters = [];
  let call = null;
  let reconnects = 0;

  const settle = () => {
    waiters = waiters.filter((w) => {
      if (failure) w.reject(failure);
      else if (finished || (lastSeq !== null && lastSeq >= w.seq)) w.resolve();
      else return true;
      return false;
    });
  };
  const fail = (err) => {
    if (failure || finished) return;
    failure = err;
    if (call) call.cancel();
    settle();
  };

  const open = () => {
    const request = { tableId, seatToken };
    if (lastSeq !== null) request.afterSeq = String(lastSeq);
    const current = client.Connect(request, bearer(token));
    call = current;
    let errored = false;
    current.on('data', (update) => {
      if (current !== call || failure) return;
      const seq = Number(update.seq);
      // Within one stream the seqs are consecutive; a snapshot (the first message, or after a
      // reconnect that came too late for the kept updates) replaces everything.
      if (update.update !== 'snapshot' && lastSeq !== null && seq !== lastSeq + 1) {
        fail(new Error(`Connect: update ${seq} after ${lastSeq}: an update was lost`));
        return;
      }
      reconnects = 0;
      lastSeq = seq;
      try {
        onUpdate(update);
      } catch (err) {
        fail(err);
        return;
      }
      settle();
    });
    current.on('error', (err) => {
      // grpc-js emits 'error' before the 'end' it also emits for a failed call.
      errored = true;
      if (current !== call || failure || finished) return;
      withCodeName(err, 'Connect');
      if (RECONNECTABLE.has(err.code) && reconnects < MAX_RECONNECTS) {
        const backoffMs = 100 * 2 ** reconnects++;
        onReconnect(err, lastSeq);
        setTimeout(() => { if (!failure) open(); }, backoffMs);
        return;
      }
      fail(err);
    });
    current.on('end', () => {
      if (errored || current !== call || failure) return;
      finished = true;
      settle();
    });
  };
  open();

  return {
    // Resolves once the stream has delivered `seq` (or ended: the game is over).
    waitFor(seq) {
      return new Promise((resolve, reject) => {
        waiters.push({ seq, resolve, reject });
        settle();
      });
    },
    get finished() { return finished; },
    get lastSeq() { return lastSeq; },
    close() { fail(new Error('closed')); },
  };
}

module.exports = { followTable };
