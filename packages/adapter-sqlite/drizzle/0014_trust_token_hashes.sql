ALTER TABLE `trust_tokens` RENAME COLUMN "secret" TO "secret_hash";--> statement-breakpoint
DROP INDEX `trust_tokens_secret_unique`;--> statement-breakpoint
CREATE UNIQUE INDEX `trust_tokens_secret_hash_unique` ON `trust_tokens` (`secret_hash`);