/**
 * A Placement API request against a test berthd as admin, at microversion
 * 1.39: the status and the parsed JSON body (undefined when empty).
 */
import { PLACEMENT_PREFIX } from "../placement/placement-app.js";
import type { TestServer } from "./test-server.fixture.js";

export async function placementCall(
  server: Pick<TestServer, "url" | "adminToken">,
  method: string,
  path: string,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the answer holds (undefined when empty)
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}${PLACEMENT_PREFIX}${path}`, {
    method,
    headers: {
      "x-auth-token": server.adminToken,
      "openstack-api-version": "placement 1.39",
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
}
