// Prints reference vectors for kahve's rating model (services/rating/openskill.cc) as JSON: random
// matches rated by the openskill reference implementation, pinned to 5.0.1. Deterministic: a fixed
// seed and our own generator, so a rerun changes the output only if openskill's numbers change.
'use strict';

const fs = require('fs');
const path = require('path');
const { rate } = require('openskill');

const kOpenskillVersion = '5.0.1';
const kSeed = 20110101;  // Weng and Lin, JMLR 2011: any fixed value would do.

// The installed version must be the pinned one; otherwise the vectors would not say what they claim.
const installed = JSON.parse(
  fs.readFileSync(path.join(__dirname, 'node_modules', 'openskill', 'package.json'), 'utf8'));
if (installed.version !== kOpenskillVersion) {
  throw new Error(`openskill ${installed.version} installed, ${kOpenskillVersion} required`);
}

// mulberry32: small, and unlike Math.random it takes a seed.
function makeRng(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = makeRng(kSeed);
const uniform = (lo, hi) => lo + (hi - lo) * random();
const intIn = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));

const randomPlayer = () => ({ mu: uniform(10, 40), sigma: uniform(0.5, 9) });
const newPlayer = () => ({ mu: 25, sigma: 25 / 3 });
const makeTeams = (sizes, player) => sizes.map((size) => Array.from({ length: size }, player));

// A random permutation of 1..n: a full order, no ties.
function permutationRanks(n) {
  const ranks = Array.from({ length: n }, (_, i) => i + 1);
  for (let i = n - 1; i > 0; i -= 1) {
    const j = intIn(0, i);
    [ranks[i], ranks[j]] = [ranks[j], ranks[i]];
  }
  return ranks;
}

// Ranks drawn from fewer places than teams, so ties are common.
const tiedRanks = (n) => Array.from({ length: n }, () => intIn(1, Math.max(1, n - 1)));

// Small integer scores (ties likely) or arbitrary ones.
const randomScores = (n) =>
  Array.from({ length: n }, () => (random() < 0.5 ? intIn(0, 3) : uniform(-100, 100)));

// How a case states its outcome: ranks (full order or with ties), scores, or nothing.
function randomOutcome(n) {
  const pick = random();
  if (pick < 0.35) return { ranks: permutationRanks(n) };
  if (pick < 0.65) return { ranks: tiedRanks(n) };
  if (pick < 0.85) return { scores: randomScores(n) };
  return {};
}

const cases = [];

function addCase(name, teams, outcome, params) {
  const options = {};
  if (outcome.ranks) options.rank = outcome.ranks;
  if (outcome.scores) options.score = outcome.scores;
  if (params) Object.assign(options, params);
  const expected = rate(teams, options);
  const entry = { name, teams };
  if (outcome.ranks) entry.ranks = outcome.ranks;
  if (outcome.scores) entry.scores = outcome.scores;
  if (params) entry.params = params;
  entry.expected = expected;
  cases.push(entry);
}

addCase('1v1 new players', makeTeams([1, 1], newPlayer), {});
addCase('1v1 new players tie', makeTeams([1, 1], newPlayer), { ranks: [1, 1] });
addCase('2v2 new players', makeTeams([2, 2], newPlayer), { ranks: [2, 1] });
addCase('ffa4 new players', makeTeams([1, 1, 1, 1], newPlayer), { ranks: [1, 2, 3, 4] });
addCase('ffa4 new players all tied', makeTeams([1, 1, 1, 1], newPlayer), { ranks: [2, 2, 2, 2] });
addCase('ffa10 new players', makeTeams(Array(10).fill(1), newPlayer), {});
// Ranks need not be small integers: only their order and equality count.
addCase('ranks fractional and negative', makeTeams([1, 2, 1], randomPlayer), { ranks: [0.5, -3, 0.5] });
addCase('scores with ties', makeTeams([1, 1, 1, 1], randomPlayer), { scores: [10, 30, 10, -5] });

for (let i = 0; i < 40; i += 1) {
  addCase(`1v1 #${i}`, makeTeams([1, 1], randomPlayer), randomOutcome(2));
}
for (let i = 0; i < 40; i += 1) {
  addCase(`2v2 #${i}`, makeTeams([2, 2], randomPlayer), randomOutcome(2));
}
for (let i = 0; i < 60; i += 1) {
  addCase(`ffa4 #${i}`, makeTeams([1, 1, 1, 1], randomPlayer), randomOutcome(4));
}
for (let i = 0; i < 25; i += 1) {
  addCase(`ffa10 #${i}`, makeTeams(Array(10).fill(1), randomPlayer), randomOutcome(10));
}
for (let i = 0; i < 130; i += 1) {
  const sizes = Array.from({ length: intIn(2, 10) }, () => intIn(1, 4));
  addCase(`mixed #${i}`, makeTeams(sizes, randomPlayer), randomOutcome(sizes.length));
}
// Non-default parameters, so the test sees each one reach the math. A large kappa makes the sigma
// floor bind; tau 0 switches the dynamics off.
const paramSets = [
  { beta: 10 },
  { beta: 1.5, tau: 0 },
  { tau: 1 },
  { kappa: 0.97 },
  { kappa: 0.995, beta: 2 },
];
for (let i = 0; i < 25; i += 1) {
  const sizes = Array.from({ length: intIn(2, 6) }, () => intIn(1, 3));
  addCase(`params #${i}`, makeTeams(sizes, randomPlayer), randomOutcome(sizes.length),
    paramSets[i % paramSets.length]);
}

// One case per line keeps regenerated diffs readable.
process.stdout.write(
  `{"openskill": "${kOpenskillVersion}", "seed": ${kSeed}, "cases": [\n` +
  cases.map((c) => JSON.stringify(c)).join(',\n') +
  '\n]}\n');
