// The five rulesets as the lobby offers them: names, a line about each, and their settings with
// only the values queues accept (docs/matchmaking.md, Queues), so a queued request is never
// refused for a value; practice tables take the same values. Also each ruleset's board.
import type { GameSettingsSchema, MessageInitShape } from "./api";
import type { BoardFactory } from "./board/types";
import { createDiceBoard } from "./board/dice_board";
import { createMexicanBoard } from "./board/mexican_board";
import { createOkeyClassicBoard } from "./board/okey_classic_board";
import { createOkeyLayingBoard } from "./board/okey_laying_board";

export type RulesetId = "okey" | "okey101" | "okey51" | "mexican_train" | "liars_dice";
/** The oneof case of GameSettings, Move, View for each ruleset. */
export type RulesetCase = "okey" | "okey101" | "okey51" | "mexicanTrain" | "liarsDice";

export interface Setting {
  key: string;
  label: string;
  /** Values offered; booleans are [false, true]. */
  values: (number | boolean)[];
  default: number | boolean;
  /** The setting is the partnership flag: it follows the queue's mode (teams). */
  teams?: boolean;
  /** Only meaningful when this other boolean setting is on. */
  requires?: string;
  /** proto3 `optional`: left out when it is the default, since a written 0 is refused. */
  optional?: boolean;
}

export interface RulesetInfo {
  id: RulesetId;
  case: RulesetCase;
  name: string;
  blurb: string;
  settings: Setting[];
  board: BoardFactory;
  /** Seats of a table with these settings. */
  seats(values: Record<string, number | boolean>): number;
  hasHints(values: Record<string, number | boolean>): boolean;
}

const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
const BOOL = [false, true];

export const RULESETS: RulesetInfo[] = [
  {
    id: "okey51", case: "okey51", name: "Okey 51",
    blurb: "Open with 51 or more in runs and sets (or five pairs), add to any meld, mind the penalty tiles. Lowest total wins.",
    settings: [
      { key: "teams", label: "2v2 partners", values: BOOL, default: false, teams: true },
      { key: "hints", label: "Hints", values: BOOL, default: true },
      { key: "doubling", label: "Doubling chain", values: BOOL, default: false },
      { key: "deals", label: "Deals", values: [1, 3], default: 1, optional: true },
    ],
    board: createOkeyLayingBoard, seats: () => 4, hasHints: (v) => v.hints === true,
  },
  {
    id: "okey101", case: "okey101", name: "Okey 101",
    blurb: "Open with 101 or more (or five pairs), lay and add, +101 for an okey or a penalty tile. Lowest total after all deals wins.",
    settings: [
      { key: "teams", label: "2v2 partners", values: BOOL, default: false, teams: true },
      { key: "hints", label: "Hints", values: BOOL, default: true },
      { key: "deals", label: "Deals", values: [3, 5, 7, 9, 11], default: 3, optional: true },
    ],
    board: createOkeyLayingBoard, seats: () => 4, hasHints: (v) => v.hints === true,
  },
  {
    id: "okey", case: "okey", name: "Okey",
    blurb: "Classic Turkish okey: draw or take, discard, and win by showing 14 tiles in runs and sets or seven pairs. Everyone starts at 20 points.",
    settings: [
      { key: "players", label: "Players", values: range(2, 4), default: 4, optional: true },
      { key: "partners", label: "2v2 partners", values: BOOL, default: false, teams: true },
      { key: "maxDeals", label: "Deals (0: play to 0 points)", values: [0, 1, 3, 5, 10], default: 1 },
      { key: "indicatorLastTile", label: "Indicator is the last tile", values: BOOL, default: false },
      { key: "elimination", label: "Elimination", values: BOOL, default: false },
      { key: "singleColourDoubles", label: "One colour doubles", values: BOOL, default: false },
      { key: "singleColourRedBlackOnly", label: "…red or black only", values: BOOL, default: false, requires: "singleColourDoubles" },
    ],
    board: createOkeyClassicBoard, seats: (v) => (v.partners ? 4 : Number(v.players ?? 4)), hasHints: () => false,
  },
  {
    id: "mexican_train", case: "mexicanTrain", name: "Mexican Train",
    blurb: "Double-twelve dominoes: your own train, marked trains and the Mexican train, doubles to satisfy. Thirteen rounds, lowest pips win.",
    settings: [{ key: "players", label: "Players", values: range(2, 10), default: 4, optional: true }],
    board: createMexicanBoard, seats: (v) => Number(v.players ?? 4), hasHints: () => true,
  },
  {
    id: "liars_dice", case: "liarsDice", name: "Liar's dice",
    blurb: "«Не верю»: bid on all the dice under the cups, raise or challenge. Ones are wild, except in a Путана round.",
    settings: [
      { key: "players", label: "Players", values: range(2, 10), default: 4, optional: true },
      { key: "dicePerPlayer", label: "Dice each", values: range(1, 5), default: 5, optional: true },
    ],
    board: createDiceBoard, seats: (v) => Number(v.players ?? 4), hasHints: () => false,
  },
];

export function rulesetById(id: string): RulesetInfo | undefined {
  return RULESETS.find((r) => r.id === id || r.case === id);
}

export function defaults(info: RulesetInfo): Record<string, number | boolean> {
  return Object.fromEntries(info.settings.map((s) => [s.key, s.default]));
}

/** GameSettings for these values; every setting is written out (queues fill defaults anyway). */
export function gameSettings(info: RulesetInfo, values: Record<string, number | boolean>): MessageInitShape<typeof GameSettingsSchema> {
  const v: Record<string, number | boolean> = {};
  for (const s of info.settings) {
    const value = values[s.key] ?? s.default;
    if (s.requires && !values[s.requires]) continue;
    v[s.key] = value;
  }
  if (info.id === "okey" && v.partners) v.players = 4;
  return { ruleset: { case: info.case, value: v } } as MessageInitShape<typeof GameSettingsSchema>;
}

/** Whether the values ask for a teams queue (the partnership flag). */
export function wantsTeams(info: RulesetInfo, values: Record<string, number | boolean>): boolean {
  return info.settings.some((s) => s.teams && values[s.key] === true);
}
