CREATE TABLE `providers` (
	`uuid` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`parent_uuid` text,
	`root_uuid` text NOT NULL,
	`generation` integer NOT NULL,
	`inventories` text NOT NULL,
	`traits` text NOT NULL,
	`aggregates` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`parent_uuid`) REFERENCES `providers`(`uuid`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `providers_name_unique` ON `providers` (`name`);--> statement-breakpoint
CREATE INDEX `providers_by_parent` ON `providers` (`parent_uuid`);--> statement-breakpoint
CREATE TABLE `traits` (
	`name` text PRIMARY KEY NOT NULL,
	`created_at` text NOT NULL
);
