// Refusals as typed values. kahve puts its structured details in gRPC's rich error model: the
// grpc-status-details-bin trailer holds a google.rpc.Status whose details are Any messages with
// type URLs "type.googleapis.com/kahve.v1.<Name>" (docs/api.md section 4). Connect decodes that
// trailer into ConnectError.details over gRPC and gRPC-Web alike; this file unpacks the ones kahve
// sends into their generated types.
import { Code, ConnectError } from "@connectrpc/connect";
import { RetryAfterSchema, type RetryAfter } from "./gen/kahve/v1/errors_pb.js";
import {
  ActiveTicketSchema,
  CurrentPartySchema,
  RequestIdInUseSchema,
  type ActiveTicket,
  type CurrentParty,
  type RequestIdInUse,
} from "./gen/kahve/v1/matchmaking_pb.js";
import {
  PlayRejectionSchema,
  StaleSeqSchema,
  type PlayRejection,
  type StaleSeq,
} from "./gen/kahve/v1/table_pb.js";
import { RejectionReason } from "./gen/kahve/v1/engine_pb.js";

/** Every detail a kahve refusal may carry; at most one of each type (docs/api.md section 4). */
export interface ErrorDetails {
  /** Play refused by the rules (FAILED_PRECONDITION or INVALID_ARGUMENT). */
  playRejection?: PlayRejection;
  /** Play, Pause, Resume, Undo or Redo with a stale expected_seq (ABORTED). */
  staleSeq?: StaleSeq;
  /** A rate limit (RESOURCE_EXHAUSTED): when this identity may call again. */
  retryAfter?: RetryAfter;
  /** Enqueue: a player of the ticket already has an active ticket (ALREADY_EXISTS). */
  activeTicket?: ActiveTicket;
  /** Enqueue: the request id is bound to a ticket of another queue (ALREADY_EXISTS). */
  requestIdInUse?: RequestIdInUse;
  /** CreateParty, JoinParty: the caller is in a party already (ALREADY_EXISTS). */
  currentParty?: CurrentParty;
}

/** A failed call, decoded. */
export interface KahveError {
  code: Code;
  /** The code as docs/api.md names it, e.g. "FAILED_PRECONDITION". */
  codeName: string;
  /** The server's message, for people (act on the code and details, never on this text). */
  message: string;
  details: ErrorDetails;
  /** For a PlayRejection: its reason's name, e.g. "LIARS_DICE_NOT_A_RAISE". */
  reasonName?: string;
  /**
   * When to try again, in milliseconds: the RetryAfter detail, else the grpc-retry-pushback-ms
   * trailer. Absent when the server gave no hint.
   */
  retryAfterMs?: number;
  /** The ConnectError itself (its metadata holds the raw trailers). */
  cause: ConnectError;
}

/** The name of a code as gRPC and docs/api.md spell it ("RESOURCE_EXHAUSTED"). */
export function codeName(code: Code): string {
  if ((code as number) === 0) return "OK";
  const name = Code[code];
  return name === undefined ? String(code) : name.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
}

/** The delay the server asked for before the next call, in ms, or undefined. */
export function retryDelayMs(error: unknown): number | undefined {
  const err = ConnectError.from(error);
  const [retryAfter] = err.findDetails(RetryAfterSchema);
  if (retryAfter?.delay) {
    return Number(retryAfter.delay.seconds) * 1000 + Math.ceil(retryAfter.delay.nanos / 1e6);
  }
  const pushback = err.metadata.get("grpc-retry-pushback-ms");
  // gRPC's rule: a value that is not a non-negative integer means "do not retry".
  if (pushback !== null && /^\d{1,9}$/.test(pushback)) return Number(pushback);
  return undefined;
}

/** Decodes any thrown value of a call (a ConnectError, or anything Connect wraps as one). */
export function decodeError(error: unknown): KahveError {
  const cause = ConnectError.from(error);
  const details: ErrorDetails = {};
  const [playRejection] = cause.findDetails(PlayRejectionSchema);
  if (playRejection) details.playRejection = playRejection;
  const [staleSeq] = cause.findDetails(StaleSeqSchema);
  if (staleSeq) details.staleSeq = staleSeq;
  const [retryAfter] = cause.findDetails(RetryAfterSchema);
  if (retryAfter) details.retryAfter = retryAfter;
  const [activeTicket] = cause.findDetails(ActiveTicketSchema);
  if (activeTicket) details.activeTicket = activeTicket;
  const [requestIdInUse] = cause.findDetails(RequestIdInUseSchema);
  if (requestIdInUse) details.requestIdInUse = requestIdInUse;
  const [currentParty] = cause.findDetails(CurrentPartySchema);
  if (currentParty) details.currentParty = currentParty;

  const decoded: KahveError = {
    code: cause.code,
    codeName: codeName(cause.code),
    message: cause.rawMessage,
    details,
    cause,
  };
  const reason = playRejection?.rejection?.reason;
  if (reason !== undefined) decoded.reasonName = RejectionReason[reason] ?? String(reason);
  const delay = retryDelayMs(cause);
  if (delay !== undefined) decoded.retryAfterMs = delay;
  return decoded;
}

/** True when `error` is a call that failed with one of `codes`. */
export function isCode(error: unknown, ...codes: Code[]): boolean {
  return error instanceof ConnectError && codes.includes(error.code);
}
