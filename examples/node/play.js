#!/usr/bin/env node
// Example kahve client: two players queue for 2-player Liar's dice, each plays its own seat over
// gRPC until the game ends, then the rating service is asked for the match, the new ratings and
// each player's history. Prints a transcript; exits non-zero on any failure.
//
// It uses @kahve/client (clients/typescript): the messages and service clients generated from
// proto/kahve/v1, the player's token on every call, the table stream resumed by after_seq, and
// refusals decoded into their structured details.
//
// Usage: node play.js [--matchmaking H:P] [--rating H:P] (--token JWT --token JWT | --kahve PATH
//                     [--players ana,bora]) [--timeout SECONDS] [--move-delay-ms MS] [--verbose]
// --move-delay-ms pauses before each move, to follow a game at a human pace; --verbose also prints
// each player's own Play answers.
// Without --token the two JWTs are minted with `kahve token --player ID`, which signs with
// KAHVE_JWT_HS256_SECRET, as the services verify them (docs/api.md section 1).

import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { MatchMode, jwtSubject, serverVersion } from '@kahve/client';
import { createNodeClient } from '@kahve/client/node';
import { play, queue } from './lib/player.js';
import { resultText } from './lib/format.js';

const { values: args } = parseArgs({
  options: {
    matchmaking: { type: 'string', default: '127.0.0.1:50051' },
    rating: { type: 'string', default: '127.0.0.1:50053' },
    token: { type: 'string', multiple: true, default: [] },
    kahve: { type: 'string' },
    players: { type: 'string', default: 'ana,bora' },
    timeout: { type: 'string', default: '120' },
    'move-delay-ms': { type: 'string', default: '0' },
    verbose: { type: 'boolean', default: false },
  },
});

const print = (line) => console.log(line);

function tokens() {
  if (args.token.length > 0) {
    if (args.token.length !== 2) throw new Error('give --token twice, one per player');
    return args.token;
  }
  if (!args.kahve) throw new Error('give two --token JWTs, or --kahve PATH to mint them');
  const ids = args.players.split(',');
  if (ids.length !== 2) throw new Error('--players takes two ids');
  return ids.map((id) => execFileSync(args.kahve, ['token', '--player', id], { encoding: 'utf8' }).trim());
}

const ratingText = (r) => `mu ${r.mu.toFixed(2)} sigma ${r.sigma.toFixed(2)} display ${r.display.toFixed(2)}` +
  ` (${r.games} game${r.games === 1 ? '' : 's'}${r.provisional ? ', provisional' : ''})`;

function check(ok, what) {
  if (!ok) throw new Error(`check failed: ${what}`);
}

async function main() {
  // The player id is the token's `sub` (docs/api.md section 1); reading it needs no verification.
  const players = tokens().map((token) => {
    const id = jwtSubject(token);
    if (!id) throw new Error('a --token has no sub claim');
    // One client per player: every call carries that player's token. Table hosts are reached at the
    // endpoint each assignment names.
    return { id, token, client: createNodeClient({ matchmaking: args.matchmaking, rating: args.rating, token }) };
  });
  check(players[0].id !== players[1].id, 'two different players');
  const shared = { probe: { move: null, rejection: null } };

  // Which kahve each service runs (docs/api.md section 9): a client logs it, and a deployment
  // mid-upgrade may show two.
  const { client } = players[0];
  const versions = {
    matchmaking: await serverVersion((options) => client.matchmaking.getQueueStats({}, options)),
    rating: await serverVersion((options) => client.rating.getRatings({ playerIds: [players[0].id] }, options)),
  };
  print(`== kahve-server-version: matchmaking ${versions.matchmaking}, rating ${versions.rating}`);
  check(versions.matchmaking !== '' && versions.matchmaking === versions.rating,
    'both services report the same kahve version');
  print(`== ${players.map((p) => p.id).join(' and ')} queue for 2-player Liar's dice`);
  const games = await Promise.all(players.map(async (player) => {
    let prefix = `[${player.id}]`;
    const log = (line) => print(`${prefix} ${line}`);
    const debug = args.verbose ? log : () => {};
    const assignment = await queue(player, log);
    prefix = `[seat ${assignment.seat} ${player.id}]`;
    log(`matched: table ${assignment.tableId} at ${assignment.tableEndpoint}, match ${assignment.matchId}`);
    // Seat 0's stream is the transcript; seat 1 logs only what it does.
    const game = await play({
      player, assignment, shared, log, debug,
      showUpdates: assignment.seat === 0, moveDelayMs: Number(args['move-delay-ms']),
    });
    return { player, assignment, ...game };
  }));

  const [a, b] = games;
  check(a.assignment.tableId === b.assignment.tableId && a.assignment.matchId === b.assignment.matchId,
    'both players were seated at the same table');
  check(new Set([a.assignment.seat, b.assignment.seat]).size === 2, 'the players have different seats');
  check(a.seats.every((s) => s.playerId !== ''), 'no seat is a bot');
  check(JSON.stringify(a.result.seats) === JSON.stringify(b.result.seats) && a.result.ending === b.result.ending,
    'both seats saw the same result');
  check(shared.probe.rejection !== null && shared.probe.rejection.reasonName === 'LIARS_DICE_QUANTITY_ABOVE_DICE',
    'the deliberately illegal bid was refused with a PlayRejection');
  const result = a.result;
  const bySeat = new Map(games.map((g) => [g.assignment.seat, g.player.id]));
  print(`== result: ${result.seats.map((s) => `${bySeat.get(s.seat)} rank ${s.rank}`).join(', ')} (${result.ending})`);

  const rating = players[0].client.rating;
  const matchId = a.assignment.matchId;
  // The table sends the result through an outbox: GetMatch is NOT_FOUND for a moment after the end.
  const match = await players[0].client.recordedMatch(matchId);
  print(`== rating service: match ${match.matchId} ${match.ruleset} ${MatchMode[match.mode]}, ` +
    `${match.rounds.length} rounds, rated: ${match.rated}`);
  for (const p of match.participants) {
    const seatResult = result.seats.find((s) => s.seat === p.seat);
    check(seatResult && seatResult.rank === p.rank && p.playerId === bySeat.get(p.seat),
      `the recorded rank of seat ${p.seat} matches the table's result`);
  }
  check(match.rated, 'the match is rated');
  for (const c of match.changes) {
    print(`   ${c.playerId}: display ${c.before.display.toFixed(2)} -> ${c.after.display.toFixed(2)}`);
  }

  const ids = players.map((p) => p.id);
  const { ratings } = await rating.getRatings({ playerIds: ids, ruleset: 'liars_dice', mode: MatchMode.SOLO });
  print('== ratings (liars_dice, solo)');
  for (const id of ids) {
    const r = ratings.find((x) => x.playerId === id);
    check(r !== undefined && r.games >= 1, `${id} has a rating`);
    print(`   ${id}: ${ratingText(r)}`);
  }

  print('== match history (newest first)');
  for (const id of ids) {
    const { matches } = await rating.listMatches({ playerId: id, pageSize: 5 });
    check(matches.length > 0 && matches[0].matchId === matchId, `${id}'s history starts with this match`);
    for (const m of matches) {
      const me = m.participants.find((p) => p.playerId === id);
      const ended = new Date(Number(m.endedAt.seconds) * 1000).toISOString();
      print(`   ${id}: ${m.matchId} ended ${ended}, rank ${me.rank} of ${m.participants.length}` +
        `${m.rated ? '' : ' (not rated)'}`);
    }
  }
  print(`== ok: ${resultText(result)}`);
}

// A watchdog rather than per-step sleeps: the steps wait on streams, and this bounds the whole run.
const watchdog = setTimeout(() => {
  console.error(`play.js: FAILED: no result within ${args.timeout}s`);
  process.exit(1);
}, Number(args.timeout) * 1000);
watchdog.unref();

main().then(() => {
  // Connections to the services stay open until exit.
  process.exit(0);
}, (err) => {
  console.error(`play.js: FAILED: ${err.message}`);
  process.exit(1);
});
