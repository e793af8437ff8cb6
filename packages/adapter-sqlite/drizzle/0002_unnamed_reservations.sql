DROP INDEX `instances_by_project_name`;--> statement-breakpoint
CREATE UNIQUE INDEX `instances_by_project_name` ON `instances` (`project`,`name`) WHERE "instances"."name" <> '';