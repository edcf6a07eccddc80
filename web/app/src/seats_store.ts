// The seats this browser holds, by table: what a reload needs to return to the same seat
// (table id, seat and seat token; the JWT is kept apart). Several entries for one table are
// the seats of a pass-and-play table.
export interface HeldSeat {
  tableId: string;
  seat: number;
  seatToken: string;
  ruleset: string;
  practice: boolean;
  matchId: string;
  /** Pass-and-play: more seats of the same table held on this device. */
  passAndPlay: boolean;
}

const KEY = "kahve.seats";

function all(): Record<string, HeldSeat[]> {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? "{}") as Record<string, HeldSeat[]>;
  } catch {
    return {};
  }
}

export function seatsAt(tableId: string): HeldSeat[] {
  return all()[tableId] ?? [];
}

export function holdSeats(seats: HeldSeat[]): void {
  const m = all();
  for (const s of seats) {
    const list = (m[s.tableId] ?? []).filter((x) => x.seat !== s.seat);
    list.push(s);
    m[s.tableId] = list.sort((a, b) => a.seat - b.seat);
  }
  // Keep the newest 20 tables only.
  const keys = Object.keys(m);
  for (const k of keys.slice(0, Math.max(0, keys.length - 20))) delete m[k];
  localStorage.setItem(KEY, JSON.stringify(m));
}

/** The tables this browser holds seats at, newest first. */
export function heldTables(): HeldSeat[] {
  return Object.values(all()).map((seats) => seats[0]!).filter(Boolean).reverse();
}
