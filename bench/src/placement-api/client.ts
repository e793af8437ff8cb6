/**
 * A Placement REST client for the bench: one service (berthd's /placement
 * or the real Placement) at a URL, microversion 1.39, `x-auth-token` (a
 * Berth token, or `admin` under Placement's noauth2), JSON in and out, over
 * kept-alive node:http connections (fetch's own client cost would count
 * against the server in a latency sample).
 */
import { Agent, request as httpRequest } from "node:http";

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

  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string | number> = {
      "x-auth-token": this.token,
      accept: "application/json",
      "openstack-api-version": "placement 1.39",
    };
    if (payload !== undefined) {
      headers["content-type"] = "application/json";
      headers["content-length"] = Buffer.byteLength(payload);
    }
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        `${this.base}${path}`,
        { method, headers, agent: this.agent },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("error", reject);
          response.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            resolve({ status: response.statusCode ?? 0, json: text === "" ? undefined : JSON.parse(text) });
          });
        },
      );
      request.on("error", reject);
      request.end(payload);
    });
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
