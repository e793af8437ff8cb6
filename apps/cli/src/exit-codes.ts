import { BerthApiError, BerthTransportError } from "@berth/client/node";

/**
 * Exit codes of `berth`, one per kind of failure, so scripts can tell a typo
 * from a full cluster without parsing messages. Documented in `berth --help`.
 */
export const ExitCode = {
  ok: 0,
  /** The request was refused: invalid input (HTTP 400), a scriptlet rejection, a failed local check. */
  failed: 1,
  /** Bad command line: unknown command or flag, missing argument, unreadable file. */
  usage: 2,
  /** HTTP 404. */
  notFound: 3,
  /** HTTP 409/412: name taken, stale generation or ETag, class in use. */
  conflict: 4,
  /** HTTP 507: no member has capacity. */
  capacity: 5,
  /** HTTP 401/403: no or wrong token, or a project the token may not touch. */
  forbidden: 6,
  /** HTTP 5xx or an answer that is not the LXD envelope: a server bug. */
  server: 7,
  /** The server could not be reached (socket missing, connection refused, timeout). */
  unreachable: 8,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export const EXIT_CODE_HELP = `Exit codes:
  0  success
  1  request refused (invalid input, scriptlet rejection, failed check)
  2  usage error (unknown command or flag, missing argument, unreadable file)
  3  not found
  4  conflict (name taken, stale generation or ETag, resource in use)
  5  no capacity (no member can take the instance)
  6  forbidden (missing or wrong token, project not allowed)
  7  server error
  8  server unreachable`;

/** A failure the CLI itself detected before or around talking to the server. */
export class CliError extends Error {
  override readonly name = "CliError";
  readonly exitCode: ExitCodeValue;

  constructor(message: string, exitCode: ExitCodeValue = ExitCode.failed) {
    super(message);
    this.exitCode = exitCode;
  }
}

export const usageError = (message: string): CliError => new CliError(message, ExitCode.usage);

/** The exit code for an HTTP status of the LXD error envelope. */
export function exitCodeForStatus(status: number): ExitCodeValue {
  if (status === 404) return ExitCode.notFound;
  if (status === 409 || status === 412) return ExitCode.conflict;
  if (status === 507) return ExitCode.capacity;
  if (status === 401 || status === 403) return ExitCode.forbidden;
  if (status >= 500) return ExitCode.server;
  return ExitCode.failed;
}

/** Any thrown value -> exit code. Unknown throwables are bugs, reported as server-side-ish failures. */
export function exitCodeFor(error: unknown): ExitCodeValue {
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof BerthApiError) return exitCodeForStatus(error.status);
  // Connection failures carry a system error code; a reply that is not the envelope does not.
  if (error instanceof BerthTransportError)
    return error.code !== undefined ? ExitCode.unreachable : ExitCode.server;
  return ExitCode.failed;
}
