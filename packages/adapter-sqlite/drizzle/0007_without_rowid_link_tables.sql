-- Custom migration (drizzle-kit cannot express WITHOUT ROWID): allocations and
-- instance_profiles are rebuilt as WITHOUT ROWID tables, so each row lives in
-- its primary key's B-tree instead of a rowid table plus a key index. Rows are
-- copied as they are; an allocation's position becomes its old rowid, which
-- keeps every instance's allocations in the order they were written.
CREATE TABLE `__new_allocations` (
	`instance_id` text NOT NULL,
	`member_id` integer NOT NULL,
	`resource_class` text NOT NULL,
	`ledger` text NOT NULL,
	`amount` integer NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`instance_id`, `member_id`, `resource_class`, `ledger`),
	FOREIGN KEY (`instance_id`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE restrict
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_allocations` (`instance_id`, `member_id`, `resource_class`, `ledger`, `amount`, `position`)
	SELECT `instance_id`, `member_id`, `resource_class`, `ledger`, `amount`, `rowid` FROM `allocations` ORDER BY `instance_id`, `member_id`, `resource_class`, `ledger`;
--> statement-breakpoint
DROP TABLE `allocations`;--> statement-breakpoint
ALTER TABLE `__new_allocations` RENAME TO `allocations`;--> statement-breakpoint
CREATE INDEX `allocations_by_member_class` ON `allocations` (`member_id`,`resource_class`,`ledger`);--> statement-breakpoint
CREATE TABLE `__new_instance_profiles` (
	`instance_id` text NOT NULL,
	`project` text NOT NULL,
	`profile` text NOT NULL,
	PRIMARY KEY(`instance_id`, `profile`),
	FOREIGN KEY (`instance_id`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_instance_profiles` (`instance_id`, `project`, `profile`)
	SELECT `instance_id`, `project`, `profile` FROM `instance_profiles` ORDER BY `instance_id`, `profile`;
--> statement-breakpoint
DROP TABLE `instance_profiles`;--> statement-breakpoint
ALTER TABLE `__new_instance_profiles` RENAME TO `instance_profiles`;--> statement-breakpoint
CREATE INDEX `instance_profiles_by_profile` ON `instance_profiles` (`project`,`profile`);
