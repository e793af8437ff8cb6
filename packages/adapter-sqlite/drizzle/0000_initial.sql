CREATE TABLE `flavors` (
	`name` text PRIMARY KEY NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`vcpus` integer NOT NULL,
	`memory_mb` integer NOT NULL,
	`disk_gb` integer NOT NULL,
	`extra_specs` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `images` (
	`fingerprint` text PRIMARY KEY NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`architecture` text NOT NULL,
	`type` text NOT NULL,
	`aliases` text NOT NULL,
	`properties` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `placement_groups` (
	`project` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`policy` text NOT NULL,
	`rigor` text NOT NULL,
	PRIMARY KEY(`project`, `name`),
	FOREIGN KEY (`project`) REFERENCES `projects`(`name`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE TABLE `profiles` (
	`project` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`config` text NOT NULL,
	`devices` text NOT NULL,
	PRIMARY KEY(`project`, `name`),
	FOREIGN KEY (`project`) REFERENCES `projects`(`name`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE TABLE `projects` (
	`name` text PRIMARY KEY NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`config` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `server_config` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer NOT NULL,
	`values` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `allocations` (
	`instance_id` text NOT NULL,
	`member_id` integer NOT NULL,
	`resource_class` text NOT NULL,
	`ledger` text NOT NULL,
	`amount` integer NOT NULL,
	PRIMARY KEY(`instance_id`, `member_id`, `resource_class`, `ledger`),
	FOREIGN KEY (`instance_id`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `allocations_by_member_class` ON `allocations` (`member_id`,`resource_class`,`ledger`);--> statement-breakpoint
CREATE TABLE `instance_profiles` (
	`instance_id` text NOT NULL,
	`project` text NOT NULL,
	`profile` text NOT NULL,
	PRIMARY KEY(`instance_id`, `profile`),
	FOREIGN KEY (`instance_id`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `instance_profiles_by_profile` ON `instance_profiles` (`project`,`profile`);--> statement-breakpoint
CREATE TABLE `instances` (
	`id` text PRIMARY KEY NOT NULL,
	`project` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`member_id` integer NOT NULL,
	`forthcoming` integer NOT NULL,
	`architecture` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`ephemeral` integer DEFAULT false NOT NULL,
	`profiles` text NOT NULL,
	`config` text NOT NULL,
	`devices` text NOT NULL,
	`instance_type` text,
	`flavor` text,
	`source` text,
	`placement_group` text,
	`origin` text,
	`created_at` text NOT NULL,
	`limits_cpu` integer DEFAULT 0 NOT NULL,
	`limits_memory_bytes` integer DEFAULT 0 NOT NULL,
	`limits_disk_bytes` integer DEFAULT 0 NOT NULL,
	`revision` integer NOT NULL,
	FOREIGN KEY (`project`) REFERENCES `projects`(`name`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `instances_by_project_name` ON `instances` (`project`,`name`);--> statement-breakpoint
CREATE INDEX `instances_by_member` ON `instances` (`member_id`,`project`,`forthcoming`,`type`);--> statement-breakpoint
CREATE INDEX `instances_by_placement_group` ON `instances` (`project`,`placement_group`,`member_id`) WHERE "instances"."placement_group" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `project_usage` (
	`project` text PRIMARY KEY NOT NULL,
	`instances` integer DEFAULT 0 NOT NULL,
	`containers` integer DEFAULT 0 NOT NULL,
	`virtual_machines` integer DEFAULT 0 NOT NULL,
	`cpu` integer DEFAULT 0 NOT NULL,
	`memory_bytes` integer DEFAULT 0 NOT NULL,
	`disk_bytes` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`project`) REFERENCES `projects`(`name`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `usage` (
	`member_id` integer NOT NULL,
	`resource_class` text NOT NULL,
	`ledger` text NOT NULL,
	`amount` integer NOT NULL,
	PRIMARY KEY(`member_id`, `resource_class`, `ledger`),
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `groups` (
	`name` text PRIMARY KEY NOT NULL,
	`description` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE `inventories` (
	`member_id` integer NOT NULL,
	`resource_class` text NOT NULL,
	`total` integer NOT NULL,
	`reserved` integer DEFAULT 0 NOT NULL,
	`min_unit` integer DEFAULT 1 NOT NULL,
	`max_unit` integer DEFAULT 2147483647 NOT NULL,
	`step_size` integer DEFAULT 1 NOT NULL,
	`allocation_ratio` real DEFAULT 1 NOT NULL,
	`source` text NOT NULL,
	PRIMARY KEY(`member_id`, `resource_class`),
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `inventories_by_class` ON `inventories` (`resource_class`);--> statement-breakpoint
CREATE TABLE `member_groups` (
	`member_id` integer NOT NULL,
	`group_name` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`member_id`, `group_name`),
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_name`) REFERENCES `groups`(`name`) ON UPDATE cascade ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `member_groups_by_group` ON `member_groups` (`group_name`);--> statement-breakpoint
CREATE TABLE `member_traits` (
	`member_id` integer NOT NULL,
	`trait` text NOT NULL,
	PRIMARY KEY(`member_id`, `trait`),
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `members` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`url` text NOT NULL,
	`architecture` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`failure_domain` text DEFAULT 'default' NOT NULL,
	`roles` text NOT NULL,
	`config` text NOT NULL,
	`evacuated` integer DEFAULT false NOT NULL,
	`last_heartbeat` text,
	`state` text,
	`resources` text,
	`generation` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `members_name_unique` ON `members` (`name`);--> statement-breakpoint
CREATE TABLE `resource_classes` (
	`name` text PRIMARY KEY NOT NULL
);
