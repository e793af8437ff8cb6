ALTER TABLE "trust_tokens" RENAME COLUMN "secret" TO "secret_hash";--> statement-breakpoint
UPDATE "trust_tokens" SET "secret_hash" = encode(sha256(convert_to("secret_hash", 'UTF8')), 'hex');--> statement-breakpoint
ALTER TABLE "trust_tokens" DROP CONSTRAINT "trust_tokens_secret_unique";--> statement-breakpoint
ALTER TABLE "trust_tokens" ADD CONSTRAINT "trust_tokens_secret_hash_unique" UNIQUE("secret_hash");