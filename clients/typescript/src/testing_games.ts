// Part of "@kahve/client/testing": players for integration tests and benchmarks that queue for
// 2-player Liar's dice and play their seats to the end from their legal moves, over any transport.
import {
  Code,
  ConnectError,
  TableState,
  decodeError,
  findChallenge,
  legalBids,
  type Assignment,
  type KahveClient,
  type Result,
  type TableUpdate,
} from "./index.js";

export interface PlayedSeat {
  assignment: Assignment;
  result: Result;
  updates: TableUpdate[];
  moves: number;
}

/** Enqueues every client (one player each) for 2-player Liar's dice and waits for their seats. */
export async function queueAll(clients: KahveClient[]): Promise<Assignment[]> {
  const tickets = await Promise.all(clients.map((c) => c.enqueue({ ruleset: { case: "liarsDice", value: { players: 2 } } })));
  return Promise.all(clients.map((c, i) => c.waitForAssignment(tickets[i]!)));
}

/**
 * Plays the seat from its stream (opened with_view) until the game's result: at its turn, the
 * second bid of a round is challenged, otherwise the lowest listed bid is made.
 */
export async function playSeat(client: KahveClient, assignment: Assignment): Promise<PlayedSeat> {
  const seat = client.seat(assignment);
  const state = new TableState();
  const updates: TableUpdate[] = [];
  let moves = 0;
  const stream = seat.stream({ withView: true });
  for await (const update of stream) {
    updates.push(update);
    state.apply(update);
    if (!state.mayAct(assignment.seat) || state.legalMoves.length === 0) continue;
    const view = state.view?.ruleset.case === "liarsDice" ? state.view.ruleset.value : undefined;
    const challenge = findChallenge(state.legalMoves);
    const [lowest] = legalBids(state.legalMoves);
    const move = challenge && (view?.bids.length ?? 0) >= 2 ? challenge
      : state.legalMoves.find((m) => m.ruleset.case === "liarsDice" && m.ruleset.value.action.case === "bid" &&
        m.ruleset.value.action.value === lowest) ?? state.legalMoves[0]!;
    try {
      await seat.play(move, { expectedSeq: state.seq });
      moves++;
    } catch (err) {
      // A bot (turn timeout) or the other seat moved first: the stream brings the new state.
      if (!(err instanceof ConnectError) || err.code !== Code.Aborted) throw new Error(`Play: ${decodeError(err).codeName} ${decodeError(err).message}`);
    }
  }
  if (!state.result) throw new Error(`seat ${assignment.seat}: the stream ended without a result`);
  return { assignment, result: state.result, updates, moves };
}

/** Every update of `updates` has the seq after its predecessor's (a snapshot may start anew). */
export function consecutive(updates: TableUpdate[]): boolean {
  return updates.every((u, i) => i === 0 || u.update.case === "snapshot" || u.seq === updates[i - 1]!.seq + 1n);
}
