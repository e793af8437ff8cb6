-- A member's root provider keeps no traits or inventories of its own: the member's are the only
-- ones (engine claim-rules/member-root.ts). Traits set through Placement on a member root's row
-- before become the member's; the row's copy of the member's inventories goes. A root provider
-- named like a member is that member's root (a provider cannot take a member's name, nor a member
-- a provider's).
INSERT INTO "member_traits" ("member_id", "trait")
  SELECT m.id, t.value FROM "providers" AS p JOIN "members" AS m ON m.name = p.name
    CROSS JOIN LATERAL jsonb_array_elements_text(p.traits) AS t(value)
  WHERE p.parent_uuid IS NULL
  ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE "providers" SET "traits" = '[]'::jsonb, "inventories" = '{}'::jsonb
  WHERE "parent_uuid" IS NULL AND "name" IN (SELECT "name" FROM "members");
