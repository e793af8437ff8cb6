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

  async call(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    const { status, text } = await requestText(
      this.agent,
      `${this.base}${path}`,
      method,
      { "x-auth-token": this.token, accept: "application/json", "openstack-api-version": "placement 1.39" },
      body === undefined ? undefined : JSON.stringify(body),
    );
    return { status, json: text === "" ? undefined : JSON.parse(text) };
  }

  /** The call, which must answer one of `expect`. */
  async must(method: string, path: string, body: unknown, expect: readonly number[]): Promise<unknown> {
    const { status, json } = await this.call(method, path, body);
    if (!expect.includes(status))
      throw new Error(
        `${this.label}: ${method} ${path} answered ${status}: ${JSON.stringify(json).slice(0, 300)}`,
      );
    return json;
  }

  close(): void {
    this.agent.destroy();
  }
}
