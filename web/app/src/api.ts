// The one file that imports the kahve TypeScript library (clients/typescript, "@kahve/client"):
// generated messages, protobuf helpers, errors, the table stream, and the gRPC-Web client to the
// gateway. Everything else in the app imports from here.
export * from "@kahve/client";
import type { KahveClient } from "@kahve/client";
import { createWebClient } from "@kahve/client/web";

export type Clients = KahveClient;

/** Every service through the gateway serving this page (gRPC-Web under /rpc). */
export function connectClients(getToken: () => string, baseUrl = `${location.origin}/rpc`): Clients {
  return createWebClient({ baseUrl, token: getToken });
}
