CREATE TABLE `change_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`entry` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `change_log_by_time` ON `change_log` (`at`);--> statement-breakpoint
CREATE TABLE `feed_horizon` (
	`id` integer PRIMARY KEY NOT NULL,
	`pruned_through` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `leases` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` integer NOT NULL
);
