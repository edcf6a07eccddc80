// HTTP/2 connections to one service, shared by every browser's calls. The services budget streams
// per client connection (max_streams_per_connection, 128) and connections per peer address
// (max_connections_per_peer, 256): behind one gateway every player would share its connections, so
// streams are spread: each connection carries at most maxStreamsPerConnection streams (100 by
// default, under the 128), and a stream that finds every connection full opens another, up to
// maxConnections (200, under the 256). One gateway process thus holds up to 20,000 streams per
// service before its own refusal, with no player throttled by another's share; a player's own
// budget (32 streams per identity) is counted by the service as before. Unary calls go round the
// open connections.
import type { Transport } from "@connectrpc/connect";
import { Http2SessionManager, createGrpcTransport } from "@connectrpc/connect-node";

export interface UpstreamOptions {
  maxStreamsPerConnection: number;
  maxConnections: number;
  readMaxBytes: number;
}

interface Connection {
  manager: Http2SessionManager;
  transport: Transport;
  streams: number;
}

/** A connection lent to one call; release() once the call is over. */
export interface Lease {
  transport: Transport;
  release(): void;
}

export class UpstreamPool {
  private readonly connections: Connection[] = [];
  private next = 0;
  private readonly baseUrl: string;

  constructor(readonly name: string, target: string, private readonly options: UpstreamOptions) {
    this.baseUrl = /^https?:\/\//.test(target) ? target : `http://${target}`;
  }

  private open(): Connection {
    const manager = new Http2SessionManager(this.baseUrl, {
      // The services ping after 60 s of silence and send away a client that pings more often than
      // every 10 s; a ping every 30 s while streams are open finds a dead connection sooner.
      pingIntervalMs: 30_000,
      pingTimeoutMs: 15_000,
      // A connection nobody uses for 5 minutes is closed (the servers close idle ones too).
      idleConnectionTimeoutMs: 300_000,
    });
    const transport = createGrpcTransport({
      baseUrl: this.baseUrl,
      sessionManager: manager,
      readMaxBytes: this.options.readMaxBytes,
      writeMaxBytes: this.options.readMaxBytes,
      // The services refuse compressed requests (docs/operations.md section 8).
      sendCompression: undefined,
    });
    const connection = { manager, transport, streams: 0 };
    this.connections.push(connection);
    return connection;
  }

  /** A connection for a server stream, or undefined when every allowed connection is full. */
  leaseStream(): Lease | undefined {
    let chosen = this.connections.find((c) => c.streams < this.options.maxStreamsPerConnection);
    if (!chosen) {
      if (this.connections.length >= this.options.maxConnections) return undefined;
      chosen = this.open();
    }
    const connection = chosen;
    connection.streams++;
    let released = false;
    return {
      transport: connection.transport,
      release: () => {
        if (!released) connection.streams--;
        released = true;
      },
    };
  }

  /** A connection for a unary call: the open connections in turn. */
  leaseUnary(): Lease {
    const connection = this.connections.length === 0 ? this.open() : this.connections[this.next++ % this.connections.length]!;
    return { transport: connection.transport, release: () => {} };
  }

  /** Connections made (idle ones reconnect on use) and streams open. */
  stats(): { connections: number; streams: number } {
    return { connections: this.connections.length, streams: this.connections.reduce((n, c) => n + c.streams, 0) };
  }

  close(): void {
    for (const c of this.connections) c.manager.abort();
  }
}
