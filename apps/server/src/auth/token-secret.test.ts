import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { generateTokenSecret, hashTokenSecret, sameSecretHash } from "./token-secret.js";

it("stores a secret as the lower-case hex SHA-256 of its UTF-8 bytes (rows written by earlier builds still match)", () => {
  // The SHA-256 of "abc", from FIPS 180-2's example.
  expect(hashTokenSecret("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const secret = generateTokenSecret();
  expect(hashTokenSecret(secret)).toBe(createHash("sha256").update(secret, "utf8").digest("hex"));
  // Not Latin-1: "é" is two bytes in UTF-8.
  expect(hashTokenSecret("é")).toBe(createHash("sha256").update(Buffer.from("é", "utf8")).digest("hex"));
  expect(sameSecretHash(hashTokenSecret(secret), hashTokenSecret(secret))).toBe(true);
  expect(sameSecretHash(hashTokenSecret(secret), hashTokenSecret(generateTokenSecret()))).toBe(false);
});
