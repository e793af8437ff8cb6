import { describe, expect, it } from "vitest";
import type { TransportRequest } from "./transport.js";
import { BerthApi } from "./typed-client.js";

/** A transport that records each request and answers an empty LXD sync envelope. */
function recording() {
  const sent: TransportRequest[] = [];
  const api = new BerthApi({
    project: "team",
    transport: async (request) => {
      sent.push(request);
      return { status: 200, header: () => undefined, body: '{"type":"sync","metadata":[]}' };
    },
  });
  return { api, sent };
}

describe("collections take paths, parameters and project scoping from the route table", () => {
  it("project-scoped collections send ?project=, others do not", async () => {
    const { api, sent } = recording();
    await api.profiles.names();
    await api.flavors.names();
    await api.instances.delete("web 1", { project: "other" });
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /1.0/profiles?project=team",
      "GET /1.0/flavors",
      "DELETE /1.0/instances/web%201?project=other",
    ]);
  });

  it("fills the route's own parameter name and sends If-Match on guarded writes", async () => {
    const { api, sent } = recording();
    await api.images.patch("ab".repeat(32), { description: "x" }, { ifMatch: '"e1"' });
    await api.imageAliases.rename("jammy", "22.04");
    await api.members.rename("n1", "n2");
    expect(sent[0]).toMatchObject({
      method: "PATCH",
      path: `/1.0/images/${"ab".repeat(32)}`,
      headers: { "if-match": '"e1"' },
      body: '{"description":"x"}',
    });
    expect(sent[1]).toMatchObject({
      method: "POST",
      path: "/1.0/images/aliases/jammy",
      body: '{"name":"22.04"}',
    });
    expect(sent[2]).toMatchObject({ path: "/1.0/cluster/members/n1", body: '{"server_name":"n2"}' });
    await expect(api.tokens.put("t", undefined as never)).rejects.toThrow("This collection has no PUT");
  });
});
