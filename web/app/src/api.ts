// The one file that imports the kahve TypeScript library: generated messages, service clients and
// the gRPC-Web transport. Everything else in the app imports from here, so the library's shape
// can change in one place.
export * from "../.standin/kahve/v1/engine_pb";
export * from "../.standin/kahve/v1/table_pb";
export * from "../.standin/kahve/v1/matchmaking_pb";
export * from "../.standin/kahve/v1/rating_pb";
export * from "../.standin/kahve/v1/fairness_pb";
export * from "../.standin/kahve/v1/okey_pb";
export * from "../.standin/kahve/v1/okey_classic_pb";
export * from "../.standin/kahve/v1/okey_laying_pb";
export * from "../.standin/kahve/v1/okey51_pb";
export * from "../.standin/kahve/v1/okey101_pb";
export * from "../.standin/kahve/v1/mexican_train_pb";
export * from "../.standin/kahve/v1/liars_dice_pb";
export { create, toJson, fromJson, toBinary, fromBinary } from "@bufbuild/protobuf";
export type { MessageInitShape } from "@bufbuild/protobuf";

import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { MatchmakingService } from "../.standin/kahve/v1/matchmaking_pb";
import { RatingService } from "../.standin/kahve/v1/rating_pb";
import { TableService } from "../.standin/kahve/v1/table_pb";

export { ConnectError, Code } from "@connectrpc/connect";

export interface Clients {
  table: Client<typeof TableService>;
  matchmaking: Client<typeof MatchmakingService>;
  rating: Client<typeof RatingService>;
}

/**
 * Clients for the three services through the gateway at this page's origin (gRPC-Web). Table
 * calls name their table in `kahve-table-id` so the gateway routes them (docs/api.md section 5).
 */
export function connectClients(getToken: () => string, baseUrl = location.origin): Clients {
  const auth: Interceptor = (next) => async (req) => {
    const token = getToken();
    if (token) req.header.set("authorization", `Bearer ${token}`);
    const msg = req.message as { tableId?: unknown };
    if (typeof msg.tableId === "string" && msg.tableId) req.header.set("kahve-table-id", msg.tableId);
    return next(req);
  };
  const transport = createGrpcWebTransport({ baseUrl, interceptors: [auth] });
  return {
    table: createClient(TableService, transport),
    matchmaking: createClient(MatchmakingService, transport),
    rating: createClient(RatingService, transport),
  };
}
