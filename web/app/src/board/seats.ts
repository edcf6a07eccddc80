// Where seats sit around the screen: the viewer at the bottom, the others clockwise from the
// viewer's next seat, so "next" (seat + 1) is always to the viewer's right.
export type Side = "bottom" | "right" | "top" | "left";

export function sideOf(seat: number, viewer: number, seats: number): Side {
  const me = viewer < 0 ? 0 : viewer;
  const d = (seat - me + seats) % seats;
  if (d === 0) return "bottom";
  if (seats === 2) return "top";
  if (seats === 3) return d === 1 ? "right" : "left";
  return d === 1 ? "right" : d === 2 ? "top" : "left";
}

/** Seats in the order they are drawn around the viewer, the viewer first. */
export function seatsAround(viewer: number, seats: number): number[] {
  const me = viewer < 0 ? 0 : viewer;
  return Array.from({ length: seats }, (_, k) => (me + k) % seats);
}
