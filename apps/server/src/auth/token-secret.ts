import { createHash, randomBytes } from "node:crypto";

/** Recognisable prefix so leaked tokens are easy to grep for and secret scanners can match them. */
export const TOKEN_PREFIX = "berth_";

/** 256 bits of randomness: far beyond guessing, which is why a plain SHA-256 (no slow KDF) is enough to store it. */
export function generateTokenSecret(): string {
  return TOKEN_PREFIX + randomBytes(32).toString("base64url");
}

export function hashTokenSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}
