// What the gateway routes: the public (player-facing) RPCs of kahve.v1, as docs/api.md section 3
// lists them. Service- and admin-only methods are never routed (issue 34): a browser has no use
// for them, and each is guarded by a role the services check anyway. Every method of the three
// services must be named in exactly one of the two lists (the unit test routes_test checks it), so
// a new RPC is not exposed, or left out, by accident.
import type { DescMethod, DescService } from "@bufbuild/protobuf";
import { MatchmakingService, RatingService, TableService } from "@kahve/client";

export type Upstream = "matchmaking" | "table" | "rating";

export interface RoutedService {
  service: DescService;
  upstream: Upstream;
  /** Methods the gateway serves, by their proto names. */
  routed: readonly string[];
  /** Methods it refuses (UNIMPLEMENTED, as for a method nobody serves), and why. */
  refused: Readonly<Record<string, string>>;
}

export const kServices: readonly RoutedService[] = [
  {
    service: MatchmakingService,
    upstream: "matchmaking",
    routed: ["Enqueue", "WatchTicket", "CancelTicket", "GetQueueStats", "CreateParty", "JoinParty",
      "LeaveParty", "GetMyTicket", "GetMyParty"],
    refused: {},
  },
  {
    service: TableService,
    upstream: "table",
    routed: ["Connect", "Play", "GetView", "GetHints", "Resign", "GetReplay", "CreatePracticeTable",
      "Pause", "Resume", "Undo", "Redo"],
    refused: {
      CreateTable: "service role: the matchmaker opens rated tables",
      ListHosts: "service role: where matchmaking places tables",
      GetMatchStates: "service role",
      ListTables: "admin role: an operator's list",
    },
  },
  {
    service: RatingService,
    upstream: "rating",
    routed: ["GetRatings", "GetLeaderboard", "ListMatches", "GetMatch", "GetRatingHistory"],
    refused: { RecordMatch: "service role: the table service records results" },
  },
];

/** The routed methods with their upstream. */
export function routedMethods(): { method: DescMethod; upstream: Upstream }[] {
  const out: { method: DescMethod; upstream: Upstream }[] = [];
  for (const s of kServices) {
    for (const name of s.routed) {
      const method = s.service.methods.find((m) => m.name === name);
      if (!method) throw new Error(`routes: ${s.service.typeName} has no method ${name}`);
      out.push({ method, upstream: s.upstream });
    }
  }
  return out;
}
