// One line per table update or event, for the transcript. Messages are @kahve/client's generated
// types: a oneof is { case, value }, an enum a number (its name from the enum object).

import { SeatChange_Kind } from '@kahve/client';

const bidText = (bid) => `${bid.quantity} x ${bid.face === 1 ? 'ones' : `${bid.face}s`}`;

export function moveText(move) {
  const action = move.ruleset.case === 'liarsDice' ? move.ruleset.value.action : null;
  if (action?.case === 'bid') return `bid ${bidText(action.value)}`;
  if (action?.case === 'challenge') return 'challenge';
  if (action?.case === 'declarePutana') return 'declare Putana';
  return `${move.ruleset.case} move`;
}

export function eventText(event) {
  if (event.gameOver?.result) return `game over: ${resultText(event.gameOver.result)}`;
  if (event.ruleset.case !== 'liarsDice') return `${event.ruleset.case} event`;
  const { case: kind, value: e } = event.ruleset.value.event;
  switch (kind) {
    case 'roundStarted':
      return `round ${e.round}: seat ${e.starter} starts, dice per seat [${e.diceCounts.join(', ')}]`;
    case 'diceRolled':
      return `seat ${event.seat} rolled [${e.dice.join(' ')}] (private to it)`;
    case 'putanaDeclared':
      return `seat ${event.seat} declares Putana`;
    case 'bidMade':
      return `seat ${event.seat} bids ${bidText(e.bid)}`;
    case 'challenged':
      return `seat ${event.seat} challenges seat ${e.bidder}'s ${bidText(e.bid)}`;
    case 'diceRevealed': {
      const dice = e.dice.map((s, seat) => `seat ${seat} [${s.dice.join(' ')}]`).join(', ');
      return `revealed ${dice}: ${e.counted} count, the bid ${e.bidStood ? 'stood' : 'failed'}`;
    }
    case 'dieLost':
      return `seat ${event.seat} loses a die (${e.diceLeft} left)`;
    case 'seatEliminated':
      return `seat ${event.seat} is out (rank ${e.rank})`;
    default:
      return `${kind} event`;
  }
}

export function resultText(result) {
  const seats = [...result.seats].sort((a, b) => a.rank - b.rank)
    .map((s) => `seat ${s.seat} rank ${s.rank} (${s.score} ${s.score === 1 ? 'die' : 'dice'} left)`).join(', ');
  return `${seats}; ${result.ending}`;
}

// The lines of one TableUpdate as its recipient saw it.
export function updateLines(update, names) {
  const head = `seq ${update.seq}`;
  const { case: kind, value } = update.update;
  if (kind === 'snapshot') {
    const seats = value.seats.map((x) => `seat ${x.seat} ${x.playerId || `bot:${x.botKind}`}`).join(', ');
    const ld = value.view.ruleset.value;
    return [`${head} snapshot: ${seats}; my dice [${ld.myDice.join(' ')}]; ` +
      `to act: seat ${value.view.toAct.join(', ') || '-'}`];
  }
  if (kind === 'move') {
    const lines = value.events.map((e) => `${head} ${eventText(e)}`);
    if (value.byBot) lines.unshift(`${head} seat ${value.seat} (${names[value.seat] || '?'}) moved by its bot: ${value.botReason}`);
    return lines;
  }
  if (kind === 'seatChange') {
    return [`${head} seat ${value.seat} is ${SeatChange_Kind[value.kind]}`];
  }
  return [`${head} ${kind}`];
}
