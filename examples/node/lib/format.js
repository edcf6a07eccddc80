'use strict';
// One line per table update or event, for the transcript.

const bidText = (bid) => `${bid.quantity} x ${bid.face === 1 ? 'ones' : `${bid.face}s`}`;

function moveText(move) {
  const m = move.liarsDice || move;
  if (m.bid) return `bid ${bidText(m.bid)}`;
  if (m.challenge) return 'challenge';
  if (m.declarePutana) return 'declare Putana';
  return JSON.stringify(move);
}

function eventText(event) {
  if (event.gameOver && event.gameOver.result) return `game over: ${resultText(event.gameOver.result)}`;
  const e = event.liarsDice;
  if (!e) return JSON.stringify(event);
  switch (e.event) {
    case 'roundStarted':
      return `round ${e.roundStarted.round}: seat ${e.roundStarted.starter} starts, dice per seat ` +
        `[${e.roundStarted.diceCounts.join(', ')}]`;
    case 'diceRolled':
      return `seat ${event.seat} rolled [${e.diceRolled.dice.join(' ')}] (private to it)`;
    case 'putanaDeclared':
      return `seat ${event.seat} declares Putana`;
    case 'bidMade':
      return `seat ${event.seat} bids ${bidText(e.bidMade.bid)}`;
    case 'challenged':
      return `seat ${event.seat} challenges seat ${e.challenged.bidder}'s ${bidText(e.challenged.bid)}`;
    case 'diceRevealed': {
      const r = e.diceRevealed;
      const dice = r.dice.map((s, seat) => `seat ${seat} [${s.dice.join(' ')}]`).join(', ');
      return `revealed ${dice}: ${r.counted} count, the bid ${r.bidStood ? 'stood' : 'failed'}`;
    }
    case 'dieLost':
      return `seat ${event.seat} loses a die (${e.dieLost.diceLeft} left)`;
    case 'seatEliminated':
      return `seat ${event.seat} is out (rank ${e.seatEliminated.rank})`;
    default:
      return JSON.stringify(e);
  }
}

function resultText(result) {
  const seats = [...result.seats].sort((a, b) => a.rank - b.rank)
    .map((s) => `seat ${s.seat} rank ${s.rank} (${s.score} ${s.score === 1 ? 'die' : 'dice'} left)`).join(', ');
  return `${seats}; ${result.ending}`;
}

// The lines of one TableUpdate as its recipient saw it.
function updateLines(update, names) {
  const head = `seq ${update.seq}`;
  if (update.update === 'snapshot') {
    const s = update.snapshot;
    const seats = s.seats.map((x) => `seat ${x.seat} ${x.playerId || `bot:${x.botKind}`}`).join(', ');
    const ld = s.view.liarsDice;
    return [`${head} snapshot: ${seats}; my dice [${ld.myDice.join(' ')}]; ` +
      `to act: seat ${s.view.toAct.join(', ') || '-'}`];
  }
  if (update.update === 'move') {
    const m = update.move;
    const lines = m.events.map((e) => `${head} ${eventText(e)}`);
    if (m.byBot) lines.unshift(`${head} seat ${m.seat} (${names[m.seat] || '?'}) moved by its bot: ${m.botReason}`);
    return lines;
  }
  if (update.update === 'seatChange') {
    return [`${head} seat ${update.seatChange.seat} is ${update.seatChange.kind}`];
  }
  return [`${head} ${JSON.stringify(update)}`];
}

module.exports = { bidText, moveText, eventText, resultText, updateLines };
