import { z } from "zod";
import { ProjectNameSchema } from "./names.js";
import { ServerConfigSchema } from "./server-config.js";

/** `PUT /1.0` replaces the whole config; `PATCH /1.0` merges the given keys ("" unsets one). */
export const ServerPutSchema = z.strictObject({ config: ServerConfigSchema });
export type ServerPut = z.infer<typeof ServerPutSchema>;
export const ServerPatchSchema = ServerPutSchema;
export type ServerPatch = ServerPut;

/** `GET /1.0` (LXD `api.Server`, the fields that apply to Berth). */
export const ServerSchema = z.strictObject({
  api_extensions: z.array(z.string()),
  api_status: z.literal("stable"),
  api_version: z.literal("1.0"),
  auth: z.enum(["trusted", "untrusted"]),
  /** Who is asking (LXD): the token's name ("" on the Unix socket). */
  auth_user_name: z.string(),
  /** How they authenticated (LXD): `unix` (the local socket), `bearer` (a token on TCP) or `tls` (a client certificate on HTTPS). */
  auth_user_method: z.enum(["unix", "bearer", "tls"]),
  /** Berth: the projects a restricted token may use; null when every project is allowed. */
  auth_user_projects: z.array(ProjectNameSchema).nullable(),
  public: z.boolean(),
  config: ServerConfigSchema,
  environment: z.strictObject({
    server: z.literal("berth"),
    server_name: z.string(),
    server_version: z.string(),
    /** Always true: Berth places instances across cluster members (LXD clients then show LOCATION). */
    server_clustered: z.boolean(),
    /** The architectures the cluster's members have (LXD: the server's own). */
    architectures: z.array(z.string()),
    /** LXD's event distribution mode; Berth serves its events itself ("full-mesh" as a standalone LXD member). */
    server_event_mode: z.string(),
  }),
});
export type Server = z.infer<typeof ServerSchema>;

/**
 * `GET /1.0` for an HTTPS caller berthd does not trust (no token, no
 * trusted client certificate): exactly LXD's `api.ServerUntrusted`, what
 * `lxc remote add` reads before it adds itself. No config, environment or
 * identity.
 */
export const ServerUntrustedSchema = z.strictObject({
  api_extensions: z.array(z.string()),
  api_status: z.literal("stable"),
  api_version: z.literal("1.0"),
  auth: z.literal("untrusted"),
  public: z.boolean(),
  /** How a client may authenticate: `tls` (a trusted client certificate), as LXD says. */
  auth_methods: z.array(z.string()),
});
export type ServerUntrusted = z.infer<typeof ServerUntrustedSchema>;
