/**
 * One POST of a storm, as a well-behaved client sends it: an answer of 503
 * (the database was busy or unreachable past its bound; nothing was
 * written) is sent again after the `Retry-After` it names, up to
 * `busyRetries` times. The storms count those retries as a figure: on an
 * overloaded machine lock waits can pass the bound, which is the documented
 * answer, not a failure; what must never happen is an overcommit, a false
 * 507, a half-done batch or a 500.
 */
import type { Berthd } from "../server/berthd.js";

export interface PostAnswer {
  status: number;
  text: string;
  /** How many 503s were answered (and retried) before this answer. */
  busyRetries: number;
}

export async function postJson(
  server: Berthd,
  path: string,
  body: unknown,
  busyRetries = 0,
): Promise<PostAnswer> {
  for (let retried = 0; ; retried++) {
    const response = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    const retryAfter = Number(response.headers.get("retry-after"));
    if (response.status !== 503 || retried >= busyRetries || !(retryAfter >= 0))
      return { status: response.status, text, busyRetries: retried };
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
  }
}
