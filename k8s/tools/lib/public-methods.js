'use strict';
// The players' methods of kahve.v1, read from the gRPC-Web gateway's route table
// (web/gateway/src/routes.ts: per service, the methods it routes and those it refuses), so that
// the public GRPCRoutes and the browsers' gateway expose the same methods: a service- or
// admin-only method (RecordMatch, CreateTable, ListTables...) routed through the public Gateway
// fails the check.

const fs = require('fs');

// Map of full service name ("kahve.v1.TableService") to { routed: Set, refused: Set }.
function readPublicMethods(routesFile) {
  const text = fs.readFileSync(routesFile, 'utf8');
  const out = new Map();
  const entry = /service:\s*(\w+),[\s\S]*?routed:\s*\[([^\]]*)\],\s*refused:\s*\{([^}]*)\}/g;
  for (const m of text.matchAll(entry)) {
    const routed = new Set([...m[2].matchAll(/"(\w+)"/g)].map((x) => x[1]));
    const refused = new Set([...m[3].matchAll(/(\w+):\s*"/g)].map((x) => x[1]));
    out.set(`kahve.v1.${m[1]}`, { routed, refused });
  }
  return out;
}

module.exports = { readPublicMethods };
