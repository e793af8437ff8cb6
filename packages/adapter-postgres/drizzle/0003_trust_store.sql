CREATE TABLE "trust_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"secret" text NOT NULL,
	"restricted" boolean NOT NULL,
	"projects" jsonb NOT NULL,
	"created_at" text NOT NULL,
	"expires_at" text NOT NULL,
	CONSTRAINT "trust_tokens_secret_unique" UNIQUE("secret")
);
--> statement-breakpoint
CREATE TABLE "trusted_certificates" (
	"fingerprint" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"restricted" boolean NOT NULL,
	"projects" jsonb NOT NULL,
	"certificate" text NOT NULL,
	"created_at" text NOT NULL
);
