/**
 * LXD's `/1.0/certificates`: the trusted client certificates (admins list,
 * show, add and delete them) and certificate-add tokens. `lxc config trust
 * add` without a certificate POSTs `token: true` and builds the token it
 * prints from the operation's metadata (`request.name`, `secret`,
 * `fingerprint`, `addresses`); `lxc remote add NAME TOKEN`, still
 * untrusted, POSTs the secret as `password` over TLS with its client
 * certificate, which is then trusted. Trust decisions and refusals are
 * logged with names and fingerprints, never secrets.
 */
import { syncResponse } from "@berth/api-types";
import type { Context, Hono } from "hono";
import { isAdmin } from "../auth/principal.js";
import { badRequest, forbiddenHttp, HttpError, notFoundHttp } from "../http/http-error.js";
import { parseRecursion } from "../http/query.js";
import { requestLog } from "../http/request-log.js";
import type { ServerEnv } from "../http/server-env.js";
import { operationUrl } from "../operations/operations.js";
import { missingProject } from "../trust/project-bindings.js";
import { tokenOperation } from "../trust/token-operations.js";
import { type Trust, trustedCertificateOf } from "../trust/trust.js";
import type { TrustedCertificate } from "../trust/trust-store.js";
import { asyncResponse } from "./register.js";
import type { ServerServices } from "./services.js";

/** LXD `api.CertificatesPost`. */
interface CertificatesPost {
  name: string;
  type: string;
  restricted: boolean;
  projects: string[];
  certificate: string;
  password: string;
  token: boolean;
}

const FIELD_TYPES: Record<keyof CertificatesPost, "string" | "boolean" | "string[]"> = {
  name: "string",
  type: "string",
  restricted: "boolean",
  projects: "string[]",
  certificate: "string",
  password: "string",
  token: "boolean",
};

/** LXD's Go client sends every field, `null` for an empty list; unknown fields and wrong types are 400s. */
export function parseCertificatesPost(raw: unknown): CertificatesPost {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw badRequest("Invalid request body: expected a JSON object");
  const post: CertificatesPost = {
    name: "",
    type: "client",
    restricted: false,
    projects: [],
    certificate: "",
    password: "",
    token: false,
  };
  for (const [field, value] of Object.entries(raw)) {
    const expected = FIELD_TYPES[field as keyof CertificatesPost];
    if (expected === undefined) throw badRequest(`Invalid request body: unknown field "${field}"`);
    if (value === null) continue;
    const fits =
      expected === "string[]"
        ? Array.isArray(value) && value.every((p) => typeof p === "string")
        : typeof value === expected;
    if (!fits) throw badRequest(`Invalid request body: "${field}" must be a ${expected}`);
    (post as unknown as Record<string, unknown>)[field] = value;
  }
  if (post.type === "") post.type = "client";
  if (post.type !== "client")
    throw badRequest(`Invalid certificate type "${post.type}": Berth trusts client certificates only`);
  if (post.restricted && post.projects.length === 0)
    throw badRequest("A restricted certificate needs at least one project");
  return post;
}

async function readPost(c: Context<ServerEnv>): Promise<CertificatesPost> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw badRequest("Invalid request body: not JSON");
  }
  return parseCertificatesPost(raw);
}

/**
 * A restricted certificate (or token for one) may only name projects that
 * exist: it is bound to them, not to their names (trust/project-bindings.ts).
 */
async function requireProjects(services: ServerServices, post: CertificatesPost): Promise<void> {
  if (!post.restricted) return;
  const names = new Set((await services.engine.catalog.listProjects()).map((p) => p.name));
  const missing = await missingProject(post.projects, async (name) => names.has(name));
  if (missing !== undefined) throw notFoundHttp(`Project "${missing}" not found`);
}

function requireAdmin(c: Context<ServerEnv>): void {
  if (!isAdmin(c.get("principal"))) throw forbiddenHttp("not authorized");
}

/** LXD's `api.Certificate`. */
function wire({ created_at: _, ...certificate }: TrustedCertificate) {
  return { ...certificate, description: "" };
}

async function findOne(trust: Trust, prefix: string): Promise<TrustedCertificate> {
  const matches = await trust.certificatesByPrefix(prefix);
  if (matches.length > 1) throw badRequest("More than one certificate matches");
  const found = matches[0];
  if (found === undefined) throw notFoundHttp("Certificate not found");
  return found;
}

export function registerCertificatesRoutes(
  app: Hono<ServerEnv>,
  services: ServerServices,
  trust: Trust,
): void {
  app.get("/1.0/certificates", async (c) => {
    requireAdmin(c);
    const all = await trust.store.listCertificates();
    const metadata =
      parseRecursion(c.req.query("recursion")) > 0
        ? all.map(wire)
        : all.map((cert) => `/1.0/certificates/${cert.fingerprint}`);
    return c.json(syncResponse(metadata));
  });

  app.post("/1.0/certificates", async (c) => {
    const principal = c.get("principal");
    const post = await readPost(c);
    const log = requestLog(c);
    if (principal.kind === "untrusted") {
      const peer = principal.peerCertificate;
      const trusted =
        peer !== undefined && post.password !== "" ? await trust.redeem(post.password, peer.der) : undefined;
      if (trusted === undefined) {
        log?.warn(
          { fingerprint: peer?.fingerprint },
          "trust refused: no client certificate or no valid token",
        );
        throw forbiddenHttp("not authorized");
      }
      log?.info(
        { name: trusted.name, fingerprint: trusted.fingerprint, restricted: trusted.restricted },
        "trust token redeemed: client certificate trusted",
      );
      return c.json(syncResponse({}));
    }
    requireAdmin(c);
    await requireProjects(services, post);
    if (post.token) {
      if (post.name === "") throw badRequest("A certificate add token needs a client name");
      // A running operation of class "token" until a client redeems it (or it expires, or is revoked).
      const { token, secret } = await trust.createToken({
        name: post.name,
        restricted: post.restricted,
        projects: post.projects,
      });
      // The only answer that holds the secret: the store has its hash only.
      const operation = tokenOperation(token, trust, services.operations.location, secret);
      log?.info({ name: post.name, restricted: post.restricted }, "trust token created");
      return c.json(asyncResponse(operationUrl(operation.id), operation), 202);
    }
    if (post.certificate === "")
      throw badRequest('No certificate given: send one in "certificate", or "token": true for an add token');
    const source = post.certificate;
    let certificate: TrustedCertificate;
    try {
      certificate = trustedCertificateOf(source, post);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw badRequest(`Invalid certificate: ${(error as Error).message}`);
    }
    await trust.store.addCertificate(certificate);
    log?.info({ name: certificate.name, fingerprint: certificate.fingerprint }, "client certificate trusted");
    return c.json(syncResponse({}));
  });

  app.get("/1.0/certificates/:fingerprint", async (c) => {
    requireAdmin(c);
    return c.json(syncResponse(wire(await findOne(trust, c.req.param("fingerprint")))));
  });

  app.delete("/1.0/certificates/:fingerprint", async (c) => {
    requireAdmin(c);
    const found = await findOne(trust, c.req.param("fingerprint"));
    await trust.store.removeCertificate(found.fingerprint);
    requestLog(c)?.info(
      { name: found.name, fingerprint: found.fingerprint },
      "client certificate no longer trusted",
    );
    return c.json(syncResponse({}));
  });
}

const ERROR = { content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorResponse" } } } };

/** LXD's `api.Certificate`, as `wire()` answers it. */
const CERTIFICATE_JSON_SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string" },
    type: { type: "string", enum: ["client"] },
    restricted: { type: "boolean" },
    projects: { type: "array", items: { type: "string" } },
    certificate: { type: "string", description: "PEM" },
    fingerprint: { type: "string", description: "hex SHA-256 of the DER" },
    description: { type: "string" },
  },
};

/** `CertificatesPost` as `parseCertificatesPost` reads it (from its own field table). */
function certificatesPostJsonSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [field, type] of Object.entries(FIELD_TYPES))
    properties[field] =
      type === "string[]" ? { type: ["array", "null"], items: { type: "string" } } : { type: [type, "null"] };
  return { type: "object", properties, additionalProperties: false };
}

/** The OpenAPI entries of `/1.0/certificates` (registered by hand: an untrusted caller may POST). */
export function certificatesOpenApiPaths(): Record<string, Record<string, unknown>> {
  const fingerprint = { name: "fingerprint", in: "path", required: true, schema: { type: "string" } };
  return {
    "/1.0/certificates": {
      get: {
        operationId: "listCertificates",
        summary: "Trusted client certificates (URLs; ?recursion=1 for objects)",
        tags: ["certificates"],
        "x-berth-access": "admin",
        parameters: [{ name: "recursion", in: "query", schema: { type: "integer", enum: [0, 1] } }],
        responses: {
          "200": { description: "URLs or LXD Certificate objects" },
          "403": { description: "Not an admin", ...ERROR },
        },
      },
      post: {
        operationId: "addCertificate",
        summary:
          'Trust a client certificate ("certificate"), make a certificate add token ("token": true: a running operation of class token), or, as an untrusted HTTPS client, redeem a token ("password") with the TLS client certificate',
        tags: ["certificates"],
        "x-berth-access": "admin (an untrusted HTTPS client may redeem a token)",
        requestBody: {
          required: true,
          content: { "application/json": { schema: certificatesPostJsonSchema() } },
        },
        responses: {
          "200": { description: "Trusted" },
          "202": {
            description:
              'The token\'s operation: metadata holds request, secret (only in this answer: later views carry ""), fingerprint, addresses, expiresAt',
            content: { "application/json": { schema: { $ref: "#/components/schemas/AsyncResponse" } } },
          },
          "400": { description: "Bad field, certificate or type", ...ERROR },
          "403": { description: "not authorized (no valid token, or not an admin)", ...ERROR },
          "409": { description: "Certificate already in trust store", ...ERROR },
        },
      },
    },
    "/1.0/certificates/{fingerprint}": {
      get: {
        operationId: "getCertificate",
        summary: "One trusted certificate, by fingerprint or a unique prefix of it",
        tags: ["certificates"],
        "x-berth-access": "admin",
        parameters: [fingerprint],
        responses: {
          "200": {
            description: "LXD Certificate",
            content: {
              "application/json": {
                schema: { type: "object", properties: { metadata: CERTIFICATE_JSON_SCHEMA } },
              },
            },
          },
          "400": { description: "More than one certificate matches", ...ERROR },
          "404": { description: "Certificate not found", ...ERROR },
        },
      },
      delete: {
        operationId: "deleteCertificate",
        summary: "Stop trusting a certificate (by fingerprint or a unique prefix)",
        tags: ["certificates"],
        "x-berth-access": "admin",
        parameters: [fingerprint],
        responses: {
          "200": { description: "No longer trusted" },
          "404": { description: "Certificate not found", ...ERROR },
        },
      },
    },
  };
}
