'use strict';
// The kahve API as a Node.js client sees it: the .proto files are loaded at run time from the
// repository's proto/ folder (no generated code), and every call carries the player's JWT.

const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');

const PROTO_ROOT = path.resolve(__dirname, '..', '..', '..', 'proto');

// Plain objects with camelCase fields, enum values as names, 64-bit integers as strings (seqs are
// uint64; JavaScript numbers would silently round above 2^53), every field present, and each
// oneof naming its set member (e.g. update: 'move').
const definition = protoLoader.loadSync(
  ['kahve/v1/matchmaking.proto', 'kahve/v1/table.proto', 'kahve/v1/rating.proto'],
  { keepCase: false, longs: String, enums: String, defaults: true, oneofs: true,
    includeDirs: [PROTO_ROOT] });
const v1 = grpc.loadPackageDefinition(definition).kahve.v1;

// proto-loader builds codecs only for RPC messages; a refused Play carries an RpcStatus holding a
// PlayRejection in the status details, so those types are decoded with protobufjs (which
// proto-loader uses inside).
const root = new protobuf.Root();
// Imports name files under proto/; google/protobuf/* are found among protobufjs's bundled copies
// before this is asked.
root.resolvePath = (origin, target) => (path.isAbsolute(target) ? target : path.join(PROTO_ROOT, target));
root.loadSync('kahve/v1/table.proto', { keepCase: false });
const RpcStatus = root.lookupType('kahve.v1.RpcStatus');
const PlayRejection = root.lookupType('kahve.v1.PlayRejection');
const kPlayRejectionUrl = 'type.googleapis.com/kahve.v1.PlayRejection';

const codeName = Object.fromEntries(Object.entries(grpc.status).map(([name, code]) => [code, name]));

function clients(endpoints) {
  const insecure = grpc.credentials.createInsecure();
  return {
    matchmaking: new v1.MatchmakingService(endpoints.matchmaking, insecure),
    rating: new v1.RatingService(endpoints.rating, insecure),
    // The table host comes from the assignment, so table clients are made per game.
    table: (endpoint) => new v1.TableService(endpoint, insecure),
  };
}

function bearer(token) {
  const metadata = new grpc.Metadata();
  metadata.set('authorization', `Bearer ${token}`);
  return metadata;
}

// One unary call as a promise, with a deadline so a stuck server fails the run instead of hanging.
function unary(client, method, request, token, deadlineMs = 10000) {
  return new Promise((resolve, reject) => {
    client[method](request, bearer(token), { deadline: Date.now() + deadlineMs }, (err, response) => {
      if (err) reject(withCodeName(err, method));
      else resolve(response);
    });
  });
}

// A unary call retried with back-off while the server is away (UNAVAILABLE: shutting down,
// restarting, overloaded) or the answer was lost (DEADLINE_EXCEEDED). Only for calls that are safe
// to repeat: reads, and a Play with a request id.
async function unaryRetrying(client, method, request, token, onRetry = () => {}) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await unary(client, method, request, token);
    } catch (err) {
      const transient = err.code === grpc.status.UNAVAILABLE || err.code === grpc.status.DEADLINE_EXCEEDED;
      if (!transient || attempt >= 6) throw err;
      onRetry(err);
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
    }
  }
}

// The kahve version the server answering a unary call reports (docs/api.md section 9): the
// kahve-server-version entry of the call's headers, or of its trailers when it was refused before
// sending any. Resolves to '' when the server sent none.
function serverVersion(client, method, request, token) {
  return new Promise((resolve) => {
    let version = '';
    const call = client[method](request, bearer(token), { deadline: Date.now() + 10000 }, () => {});
    call.on('metadata', (metadata) => {
      version = version || String(metadata.get('kahve-server-version')[0] || '');
    });
    call.on('status', (status) => {
      resolve(version || String(status.metadata.get('kahve-server-version')[0] || ''));
    });
  });
}

function withCodeName(err, method) {
  err.codeName = codeName[err.code] || String(err.code);
  err.message = `${method}: ${err.codeName}: ${err.details}`;
  return err;
}

// The PlayRejection of a refused Play, or null. The grpc-status-details-bin trailer holds a
// google.rpc.Status (kahve.v1.RpcStatus) whose details carry the PlayRejection in an Any; grpc-js
// leaves that trailer in the error's metadata as raw bytes.
function playRejection(err) {
  const trailer = err.metadata ? err.metadata.get('grpc-status-details-bin') : [];
  if (trailer.length === 0) return null;
  const status = RpcStatus.decode(trailer[0]);
  const detail = status.details.find((any) => any.type_url === kPlayRejectionUrl || any.typeUrl === kPlayRejectionUrl);
  if (!detail) return null;
  const message = PlayRejection.decode(detail.value);
  return PlayRejection.toObject(message, { enums: String, longs: String, defaults: true });
}

module.exports = {
  grpc, clients, bearer, unary, unaryRetrying, withCodeName, playRejection, codeName, serverVersion,
};
