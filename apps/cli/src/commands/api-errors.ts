import { BerthApiError } from "@berth/client/node";

/**
 * Runs a request and, when the server refuses it, prefixes the message the
 * way `lxc` does ("Failed instance creation: ..."), keeping the HTTP status so
 * the exit code still tells not-found from no-capacity.
 */
export async function withErrorPrefix<T>(prefix: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof BerthApiError) {
      throw new BerthApiError(error.status, `${prefix}: ${error.message}`, error.metadata);
    }
    throw error;
  }
}
