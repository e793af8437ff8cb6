DROP INDEX `change_log_by_time`;--> statement-breakpoint
DROP INDEX `allocations_by_member_class`;--> statement-breakpoint
CREATE INDEX `allocations_by_member` ON `allocations` (`member_id`);