/**
 * A Placement API request to a test berthd as an admin, at microversion
 * 1.39: the status and the parsed JSON body (undefined when empty).
 */
import { PLACEMENT_PREFIX } from "../placement/placement-app.js";
import type { Envelope, TestServer } from "./test-server.fixture.js";

export type PlacementCall = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: Envelope }>;

export function placementCall(server: () => TestServer): PlacementCall {
  return async (method, path, body) => {
    const { url, adminToken } = server();
    const response = await fetch(`${url}${PLACEMENT_PREFIX}${path}`, {
      method,
      headers: {
        "x-auth-token": adminToken,
        "openstack-api-version": "placement 1.39",
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
  };
}
