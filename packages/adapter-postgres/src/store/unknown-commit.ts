/**
 * A claim whose connection was lost after its COMMIT was sent (a restart
 * or `pg_terminate_backend` in that instant) may or may not have been
 * committed. Its change-feed entry is written in the same transaction and
 * carries the claim's token (`claimEntryOf`), so the log tells: once the
 * database answers again, the entry is there (committed: the claim's
 * answer stands, and the engine's feed sync applies it once, whichever of
 * the answer and a read comes first) or it is not (nothing was written: a
 * 503, and the caller may retry). Never applied twice, never lost.
 *
 * The backend that ran the transaction is gone when the connection was
 * ended by the server (restart, terminate); a network cut that leaves it
 * running could commit after this read, which `idle_in_transaction_session_timeout`
 * does not bound: such a claim is then applied by whichever feed read brings
 * its entry, as any other committed change.
 */
import { isEngineError, unavailable } from "@berth/engine";
import { isCommitOutcomeUnknown } from "../connection/driver-errors.js";
import type { Pools } from "../connection/pools.js";

/** How long the log is asked (the database may still be restarting). */
const RESOLVE_WITHIN_MS = 15_000;
const RETRY_PAUSE_MS = 250;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether an entry holding `token` is in the change feed. */
async function loggedClaim(pools: Pools, token: string): Promise<boolean> {
  const [row] = await pools.query<{ found: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM change_log WHERE entry @> $1::jsonb) AS found",
    [JSON.stringify({ tokens: [token] })],
  );
  return row?.found === true;
}

/**
 * After `error`: returns when the claim of `token` committed after all (its
 * entry is in the log); throws a 503 saying nothing was written when the
 * log, read once the database answers again, does not have it; rethrows
 * `error` for any other failure, when there is no token to look for, or
 * when the database does not answer within RESOLVE_WITHIN_MS.
 */
export async function resolveLostCommit(
  pools: Pools,
  error: unknown,
  token: string | undefined,
): Promise<void> {
  if (!isCommitOutcomeUnknown(error) || token === undefined) throw error;
  const deadline = Date.now() + RESOLVE_WITHIN_MS;
  for (;;) {
    let found: boolean | undefined;
    try {
      found = await loggedClaim(pools, token);
    } catch (readError) {
      if (!isEngineError(readError, "unavailable")) throw readError;
    }
    if (found === true) return;
    if (found === false)
      throw unavailable(
        "Database unavailable: the connection to PostgreSQL was lost before the change committed; nothing was written, try again",
        { reason: "connection", retryAfterSeconds: 1 },
      );
    if (Date.now() + RETRY_PAUSE_MS > deadline) throw error;
    await sleep(RETRY_PAUSE_MS);
  }
}
