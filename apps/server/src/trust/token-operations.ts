/**
 * Pending certificate-add tokens seen as LXD sees them: running
 * operations of class `token` in project `default`, whose metadata holds
 * what `lxc` builds the printed token from (`request.name`, `secret`,
 * `fingerprint`, `addresses`, `expiresAt`). `lxc config trust add` reads
 * one from its 202 answer; `lxc config trust list-tokens` lists them
 * (`GET /1.0/operations?recursion=1`) and `revoke-token` cancels one
 * (`DELETE /1.0/operations/ID`). They are made from the trust store's
 * rows, so any server sharing the database shows and revokes them.
 *
 * The store keeps only a hash of each secret: the operation answering the
 * token's creation carries the secret (shown once, as `lxc config trust
 * add` prints it); every later view of it carries `secret: ""`, so
 * `list-tokens` shows the token without its secret (LXD shows it whole).
 */
import { OPERATION_STATUS, type OperationWire } from "../operations/operations.js";
import type { Trust } from "./trust.js";
import type { PendingToken } from "./trust-store.js";

/** Tokens belong to the default project, as LXD's token operations do. */
export const TOKEN_PROJECT = "default";

/** `secret`: only when answering the token's creation; "" in every later view. */
export function tokenOperation(
  token: PendingToken,
  trust: Trust,
  location: string,
  secret = "",
): OperationWire {
  return {
    id: token.id,
    class: "token",
    description: "Executing operation",
    created_at: token.created_at,
    updated_at: token.created_at,
    status: "Running",
    status_code: OPERATION_STATUS.Running,
    resources: null,
    metadata: {
      // LXD's CertificatesPost as asked for, without a secret.
      request: {
        name: token.name,
        type: "client",
        restricted: token.restricted,
        projects: token.projects,
        certificate: "",
        password: "",
        token: true,
      },
      secret,
      fingerprint: trust.serverFingerprint,
      addresses: trust.addresses,
      expiresAt: token.expires_at,
    },
    may_cancel: true,
    err: "",
    location,
  };
}

/** The live tokens as operations. */
export async function tokenOperations(trust: Trust, location: string): Promise<OperationWire[]> {
  return (await trust.store.listTokens(new Date().toISOString())).map((t) =>
    tokenOperation(t, trust, location),
  );
}
