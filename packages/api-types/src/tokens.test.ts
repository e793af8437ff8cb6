import { describe, expect, it } from "vitest";
import { errorOf } from "./testing/rejection.fixture.js";
import { TokenCreatedSchema, TokenSchema, TokensPostSchema } from "./tokens.js";
import { parseBody } from "./validation.js";

describe("tokens", () => {
  it("creates a restricted token by listing projects (admin defaults to false)", () => {
    expect(parseBody(TokensPostSchema, { name: "ci", projects: ["team-a"] })).toEqual({
      ok: true,
      value: { name: "ci", admin: false, projects: ["team-a"] },
    });
  });

  it("creates an admin token without projects", () => {
    expect(parseBody(TokensPostSchema, { name: "ops", admin: true }).ok).toBe(true);
  });

  it("refuses contradictory or useless scopes", () => {
    expect(errorOf(parseBody(TokensPostSchema, { name: "ops", admin: true, projects: ["a"] }))).toBe(
      'Invalid field "projects": must be empty for an admin token',
    );
    expect(errorOf(parseBody(TokensPostSchema, { name: "ci" }))).toBe(
      'Invalid field "projects": must name at least one project for a non-admin token',
    );
    expect(errorOf(parseBody(TokensPostSchema, { name: "ci", projects: ["a_b"] }))).toBe(
      'Invalid field "projects[0]": must be 1-63 characters without "/", spaces, underscores, quotes, control or bidi formatting characters, "?", "#", "%" or "\\", and not "*", "." or ".."',
    );
  });

  it("describes stored tokens and the one-time secret", () => {
    const token = {
      name: "ci",
      description: "",
      admin: false,
      projects: ["default"],
      created_at: "2026-11-20T23:00:00Z",
    };
    expect(parseBody(TokenSchema, token).ok).toBe(true);
    expect(errorOf(parseBody(TokenSchema, { ...token, secret_hash: "x" }))).toBe(
      'Unknown field "secret_hash"',
    );
    expect(parseBody(TokenCreatedSchema, { name: "ci", secret: "s".repeat(43) }).ok).toBe(true);
    expect(errorOf(parseBody(TokenCreatedSchema, { name: "ci", secret: "short" }))).toBe(
      'Invalid field "secret": must be at least 32 characters long',
    );
  });
});
