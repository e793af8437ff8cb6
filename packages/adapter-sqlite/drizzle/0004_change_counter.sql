CREATE TABLE `change_counter` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer NOT NULL
);
