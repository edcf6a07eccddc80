// A simple Liar's dice player (docs/rules/liars_dice.md) that decides from its own view only:
// its dice, the dice on the table and the round's bids. It estimates how many dice show a face
// (its own exactly, the unknown ones as fair rolls) and challenges a bid it finds implausible;
// otherwise it makes the raise it finds most plausible.

// How far a bid may exceed the expected count before it is doubted.
const DOUBT_MARGIN = 1;

function expectedCount(view, face) {
  // Ones are wild, except in a Путана round and for a bid on ones itself.
  const wild = !view.putanaRound && face !== 1;
  const own = view.myDice.filter((d) => d === face || (wild && d === 1)).length;
  const unknown = view.diceOnTable - view.myDice.length;
  return own + unknown * (wild ? 2 / 6 : 1 / 6);
}

// Every legal raise of `last`, from the rules' table of raises, capped at the dice on the table.
function legalRaises(view, last) {
  const max = view.diceOnTable;
  const raises = [];
  const range = (from, face) => {
    for (let q = Math.max(from, 1); q <= max; q++) raises.push({ quantity: q, face });
  };
  if (view.putanaRound) {
    range(last.quantity + 1, last.face); // the face is fixed, only more of it
  } else if (last.face === 1) {
    range(last.quantity + 1, 1);
    for (let f = 2; f <= 6; f++) range(2 * last.quantity + 1, f);
  } else {
    range(last.quantity + 1, last.face);
    for (let f = last.face + 1; f <= 6; f++) range(last.quantity, f);
    range(Math.ceil(last.quantity / 2), 1);
  }
  return raises;
}

// The seat's moves in order of preference, as plain descriptions ({ bid }, { challenge },
// { declarePutana }); the caller keeps those its legal moves list and plays the first.
function candidateMoves(view) {
  const plausibility = (bid) => expectedCount(view, bid.face) - bid.quantity;
  const byPlausibility = (a, b) => plausibility(b) - plausibility(a) || a.quantity - b.quantity;

  if (view.putanaOffered) {
    // Declaring Путана is legal exactly when offered, and the seat keeps the turn to open.
    return [{ declarePutana: {} }];
  }
  const last = view.bids.length > 0 ? view.bids[view.bids.length - 1].bid : null;
  if (last === null) {
    // Open on the face it expects most of, one below the expected count to leave room to raise
    // (ones only in a Путана round). The other faces follow as fallbacks.
    const faces = view.putanaRound ? [1, 2, 3, 4, 5, 6] : [2, 3, 4, 5, 6];
    return faces
      .sort((a, b) => expectedCount(view, b) - expectedCount(view, a))
      .map((face) => ({
        bid: { quantity: Math.min(view.diceOnTable, Math.max(1, Math.floor(expectedCount(view, face)) - 1)), face },
      }));
  }
  const challenge = { challenge: {} };
  const raises = legalRaises(view, last).sort(byPlausibility);
  const doubt = last.quantity - expectedCount(view, last.face);
  if (raises.length === 0 || doubt > DOUBT_MARGIN || plausibility(raises[0]) < -DOUBT_MARGIN) {
    return [challenge];
  }
  return [{ bid: raises[0] }, challenge];
}

export { candidateMoves, legalRaises, expectedCount };
