CREATE TABLE `trust_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`secret` text NOT NULL,
	`restricted` integer NOT NULL,
	`projects` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `trust_tokens_secret_unique` ON `trust_tokens` (`secret`);--> statement-breakpoint
CREATE TABLE `trusted_certificates` (
	`fingerprint` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`restricted` integer NOT NULL,
	`projects` text NOT NULL,
	`certificate` text NOT NULL,
	`created_at` text NOT NULL
);
