// Okey tiles as the API names them: a colour letter (R red, B blue, K black, Y yellow) and a
// number, "R5", "K13"; "F" a fake okey (RULES.md "Okey tiles").
import { h } from "../ui/dom";

export const COLOURS = ["R", "B", "K", "Y"] as const;
export type Colour = (typeof COLOURS)[number];
const COLOUR_NAMES: Record<Colour, string> = { R: "red", B: "blue", K: "black", Y: "yellow" };

export interface Face {
  colour: Colour;
  number: number;
}

export function parseTile(name: string): Face | null {
  const m = /^([RBKY])(\d{1,2})$/.exec(name);
  if (!m) return null;
  const n = Number(m[2]);
  return n >= 1 && n <= 13 ? { colour: m[1] as Colour, number: n } : null;
}

export function tileName(face: Face): string {
  return `${face.colour}${face.number}`;
}

/** What a tile plays as: a fake okey plays as the okey's face. */
export function playsAs(tile: string, okey: string): string {
  return tile === "F" ? okey : tile;
}

export function describeTile(tile: string, okey = ""): string {
  if (tile === "F") return okey ? `fake okey (plays as ${describeTile(okey)})` : "fake okey";
  const f = parseTile(tile);
  if (!f) return tile;
  const base = `${COLOUR_NAMES[f.colour]} ${f.number}`;
  return tile === okey ? `${base}, okey (wild)` : base;
}

/** Sort key: colour, then number; fakes after their face, okeys last (as players arrange them). */
export function tileOrder(tile: string, okey: string): number {
  if (tile === okey) return 1000;
  const f = parseTile(playsAs(tile, okey));
  if (!f) return 999;
  return COLOURS.indexOf(f.colour) * 20 + f.number + (tile === "F" ? 0.5 : 0);
}

export interface TileOptions {
  okey: string;
  selected?: boolean;
  /** Rendered as a button (an actionable tile) rather than an image. */
  interactive?: boolean;
  extraLabel?: string;
  small?: boolean;
  standsFor?: string;
  classes?: string[];
}

/** One tile: face-coloured number on ivory, a star for the fake okey, gold edge for the okey. */
export function tileElement(tile: string, opts: TileOptions): HTMLElement {
  const face = parseTile(tile);
  const classes = ["tile", ...(opts.classes ?? [])];
  if (face) classes.push(`tile--${face.colour}`);
  if (tile === "F") classes.push("tile--fake");
  if (tile === opts.okey && opts.okey !== "") classes.push("tile--okey");
  if (opts.small) classes.push("tile--small");
  if (opts.selected) classes.push("is-selected");
  let label = describeTile(tile, opts.okey);
  if (opts.standsFor) label += ` standing for ${describeTile(opts.standsFor)}`;
  if (opts.extraLabel) label += `, ${opts.extraLabel}`;
  const body = [
    h("span", { class: "tile__num", "aria-hidden": "true" }, face ? String(face.number) : "★"),
    h("span", { class: "tile__dot", "aria-hidden": "true" }),
  ];
  if (opts.standsFor && opts.standsFor !== tile) {
    body.push(h("span", { class: "tile__as", "aria-hidden": "true" }, "=" + opts.standsFor));
  }
  if (opts.interactive) {
    return h("button", { type: "button", class: classes.join(" "), "aria-label": label,
      "aria-pressed": opts.selected ? "true" : "false", "data-tile": tile }, ...body);
  }
  return h("span", { class: classes.join(" "), role: "img", "aria-label": label, "data-tile": tile }, ...body);
}

/** Tile back, for counts and the deck. */
export function tileBack(label: string, small = false): HTMLElement {
  return h("span", { class: `tile tile--back${small ? " tile--small" : ""}`, role: "img", "aria-label": label });
}
