CREATE TABLE `consumer_allocations` (
	`consumer_uuid` text NOT NULL,
	`provider_uuid` text NOT NULL,
	`resource_class` text NOT NULL,
	`amount` integer NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`consumer_uuid`, `provider_uuid`, `resource_class`),
	FOREIGN KEY (`consumer_uuid`) REFERENCES `consumers`(`uuid`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`provider_uuid`) REFERENCES `providers`(`uuid`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `consumer_allocations_by_provider` ON `consumer_allocations` (`provider_uuid`,`resource_class`);--> statement-breakpoint
CREATE TABLE `consumers` (
	`uuid` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`user_id` text NOT NULL,
	`consumer_type` text,
	`generation` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `consumers_by_project_user` ON `consumers` (`project_id`,`user_id`);--> statement-breakpoint
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
