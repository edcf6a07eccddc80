// @kahve/client: kahve's typed client. This entry holds what Node.js and browsers share; the
// transports are in "@kahve/client/node" (gRPC) and "@kahve/client/web" (gRPC-Web).
export * from "./gen.js";
export { create, clone, equals, fromBinary, toBinary, fromJson, toJson, toJsonString } from "@bufbuild/protobuf";
export type { MessageInitShape, MessageShape } from "@bufbuild/protobuf";
export { Code, ConnectError, createClient } from "@connectrpc/connect";
export type { Client, Interceptor, Transport } from "@connectrpc/connect";
export * from "./auth.js";
export * from "./backoff.js";
export * from "./client.js";
export * from "./errors.js";
export * from "./moves/index.js";
export * from "./rate_limit.js";
export * from "./request_id.js";
export * from "./server_version.js";
export * from "./table_id.js";
export * from "./table_state.js";
export * from "./table_stream.js";
export * from "./ticket_watch.js";
export * from "./transport_options.js";
