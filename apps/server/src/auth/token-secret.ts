import { hash, randomBytes, timingSafeEqual } from "node:crypto";

/** Recognisable prefix so leaked tokens are easy to grep for and secret scanners can match them. */
export const TOKEN_PREFIX = "berth_";

/** 256 bits of randomness: far beyond guessing, which is why a plain SHA-256 (no slow KDF) is enough to store it. */
export function generateTokenSecret(): string {
  return TOKEN_PREFIX + randomBytes(32).toString("base64url");
}

/**
 * How every secret berthd hands out is stored (API tokens, certificate-add tokens): lower-case
 * hex SHA-256 of its UTF-8 bytes. The secrets are 256 random bits, so a fast hash is safe: no
 * dictionary to try, and a preimage is out of reach; a slow KDF would only slow every lookup.
 * Every authenticated request hashes its bearer token: the one-shot `hash` (a string is hashed
 * as its UTF-8 bytes) costs a third of a `createHash` object's update and digest.
 */
export function hashTokenSecret(secret: string): string {
  return hash("sha256", secret, "hex");
}

/** Whether two stored hashes are equal, in time that does not depend on where they differ. */
export function sameSecretHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}
