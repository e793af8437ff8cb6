/**
 * A Placement REST client for the bench: one service (berthd's /placement
 * or the real Placement) at a URL, microversion 1.39, `x-auth-token` (a
 * Berth token, or `admin` under Placement's noauth2), JSON in and out, over
 * kept-alive node:http connections (fetch's own client cost would count
 * against the server in a latency sample).
 */
import { Agent } from "node:http";
import { requestText } from "../server/http-text.js";

export class PlacementClient {
  private readonly agent: Agent;

  constructor(
    /** What the table calls it. */
    readonly label: string,
    /** The service root, e.g. http://127.0.0.1:8443/placement. */
    private readonly base: string,
    private readonly token: string,
    /** Keep connections open between requests (uWSGI's --http-socket closes them after each answer). */
    keepAlive = true,
  ) {
    this.agent = new Agent({ keepAlive });
  }

  /** The call's answer as received, not parsed. */
  callText(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
    return requestText(
      this.agent,
      `${this.base}${path}`,
      method,
      { "x-auth-token": this.token, accept: "application/json", "openstack-api-version": "placement 1.39" },
      body === undefined ? undefined : JSON.stringify(body),
    );
  }

  /** The call, which must answer one of `expect`. */
  async must(method: string, path: string, body: unknown, expect: readonly number[]): Promise<unknown> {
    const text = await this.mustText(method, path, body, expect);
    return text === "" ? undefined : JSON.parse(text);
  }

  /**
   * The call's answer as received, which must be one of `expect`. A timed
   * sample ends with the answer's last byte: parsing the full candidate list
   * (441 KB) took the bench about 3 ms, which is the client's cost, not the
   * server's.
   */
  async mustText(method: string, path: string, body: unknown, expect: readonly number[]): Promise<string> {
    const { status, text } = await this.callText(method, path, body);
    if (!expect.includes(status))
      throw new Error(`${this.label}: ${method} ${path} answered ${status}: ${text.slice(0, 300)}`);
    return text;
  }

  close(): void {
    this.agent.destroy();
  }
}
