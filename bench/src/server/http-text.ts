/**
 * One HTTP request over node:http with a given agent, the body read as
 * text: what the bench's clients (berthd's LXD API, the Placement API)
 * send, without fetch's own client cost in a latency sample.
 */
import { type Agent, request as httpRequest } from "node:http";

export function requestText(
  agent: Agent,
  url: string,
  method: string,
  headers: Record<string, string | number>,
  payload: string | undefined,
): Promise<{ status: number; text: string }> {
  const sent = { ...headers };
  if (payload !== undefined) {
    sent["content-type"] = "application/json";
    sent["content-length"] = Buffer.byteLength(payload);
  }
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers: sent, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    request.on("error", reject);
    request.end(payload);
  });
}
