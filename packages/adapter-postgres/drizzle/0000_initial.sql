CREATE SEQUENCE "public"."instances_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "flavors" (
	"name" text PRIMARY KEY NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"vcpus" integer NOT NULL,
	"memory_mb" bigint NOT NULL,
	"disk_gb" bigint NOT NULL,
	"extra_specs" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "images" (
	"fingerprint" text PRIMARY KEY NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"architecture" text NOT NULL,
	"type" text NOT NULL,
	"aliases" jsonb NOT NULL,
	"properties" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "placement_groups" (
	"project" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"policy" text NOT NULL,
	"rigor" text NOT NULL,
	CONSTRAINT "placement_groups_project_name_pk" PRIMARY KEY("project","name")
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"project" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"config" jsonb NOT NULL,
	"devices" jsonb NOT NULL,
	CONSTRAINT "profiles_project_name_pk" PRIMARY KEY("project","name")
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"name" text PRIMARY KEY NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"config" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_config" (
	"id" integer PRIMARY KEY NOT NULL,
	"version" integer NOT NULL,
	"values" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "change_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"entry" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feed_horizon" (
	"name" text PRIMARY KEY NOT NULL,
	"pruned_before" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "allocations" (
	"instance_id" text NOT NULL,
	"member_id" bigint NOT NULL,
	"resource_class" text NOT NULL,
	"ledger" text NOT NULL,
	"amount" bigint NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "allocations_instance_id_member_id_resource_class_ledger_pk" PRIMARY KEY("instance_id","member_id","resource_class","ledger")
);
--> statement-breakpoint
CREATE TABLE "instance_profiles" (
	"instance_id" text NOT NULL,
	"project" text NOT NULL,
	"profile" text NOT NULL,
	CONSTRAINT "instance_profiles_instance_id_profile_pk" PRIMARY KEY("instance_id","profile")
);
--> statement-breakpoint
CREATE TABLE "instances" (
	"id" text PRIMARY KEY NOT NULL,
	"project" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"member_id" bigint NOT NULL,
	"forthcoming" boolean NOT NULL,
	"architecture" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"ephemeral" boolean DEFAULT false NOT NULL,
	"profiles" jsonb NOT NULL,
	"config" jsonb NOT NULL,
	"devices" jsonb NOT NULL,
	"instance_type" text,
	"flavor" text,
	"source" jsonb,
	"placement_group" text,
	"origin" text,
	"created_at" text NOT NULL,
	"limits_cpu" bigint DEFAULT 0 NOT NULL,
	"limits_memory_bytes" bigint DEFAULT 0 NOT NULL,
	"limits_disk_bytes" bigint DEFAULT 0 NOT NULL,
	"revision" integer NOT NULL,
	"seq" bigint DEFAULT nextval('instances_seq') NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_usage" (
	"project" text NOT NULL,
	"shard" smallint NOT NULL,
	"instances" bigint DEFAULT 0 NOT NULL,
	"containers" bigint DEFAULT 0 NOT NULL,
	"virtual_machines" bigint DEFAULT 0 NOT NULL,
	"cpu" bigint DEFAULT 0 NOT NULL,
	"memory_bytes" bigint DEFAULT 0 NOT NULL,
	"disk_bytes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "project_usage_project_shard_pk" PRIMARY KEY("project","shard")
);
--> statement-breakpoint
CREATE TABLE "usage" (
	"member_id" bigint NOT NULL,
	"resource_class" text NOT NULL,
	"ledger" text NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "usage_member_id_resource_class_ledger_pk" PRIMARY KEY("member_id","resource_class","ledger")
);
--> statement-breakpoint
CREATE TABLE "groups" (
	"name" text PRIMARY KEY NOT NULL,
	"description" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inventories" (
	"member_id" bigint NOT NULL,
	"resource_class" text NOT NULL,
	"total" bigint NOT NULL,
	"reserved" bigint DEFAULT 0 NOT NULL,
	"min_unit" bigint DEFAULT 1 NOT NULL,
	"max_unit" bigint DEFAULT 2147483647 NOT NULL,
	"step_size" bigint DEFAULT 1 NOT NULL,
	"allocation_ratio" double precision DEFAULT 1 NOT NULL,
	"source" text NOT NULL,
	"grandfathered_usage" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "inventories_member_id_resource_class_pk" PRIMARY KEY("member_id","resource_class")
);
--> statement-breakpoint
CREATE TABLE "member_groups" (
	"member_id" bigint NOT NULL,
	"group_name" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "member_groups_member_id_group_name_pk" PRIMARY KEY("member_id","group_name")
);
--> statement-breakpoint
CREATE TABLE "member_traits" (
	"member_id" bigint NOT NULL,
	"trait" text NOT NULL,
	CONSTRAINT "member_traits_member_id_trait_pk" PRIMARY KEY("member_id","trait")
);
--> statement-breakpoint
CREATE TABLE "members" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"architecture" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"failure_domain" text DEFAULT 'default' NOT NULL,
	"roles" jsonb NOT NULL,
	"config" jsonb NOT NULL,
	"evacuated" boolean DEFAULT false NOT NULL,
	"last_heartbeat" text,
	"state" jsonb,
	"resources" jsonb,
	"generation" integer DEFAULT 0 NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "members_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "resource_classes" (
	"name" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"hash" text NOT NULL,
	"admin" boolean NOT NULL,
	"projects" jsonb NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "api_tokens_name_unique" UNIQUE("name"),
	CONSTRAINT "api_tokens_hash_unique" UNIQUE("hash")
);
--> statement-breakpoint
ALTER TABLE "placement_groups" ADD CONSTRAINT "placement_groups_project_projects_name_fk" FOREIGN KEY ("project") REFERENCES "public"."projects"("name") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_project_projects_name_fk" FOREIGN KEY ("project") REFERENCES "public"."projects"("name") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allocations" ADD CONSTRAINT "allocations_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allocations" ADD CONSTRAINT "allocations_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instance_profiles" ADD CONSTRAINT "instance_profiles_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_project_projects_name_fk" FOREIGN KEY ("project") REFERENCES "public"."projects"("name") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_usage" ADD CONSTRAINT "project_usage_project_projects_name_fk" FOREIGN KEY ("project") REFERENCES "public"."projects"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage" ADD CONSTRAINT "usage_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventories" ADD CONSTRAINT "inventories_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_groups" ADD CONSTRAINT "member_groups_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_groups" ADD CONSTRAINT "member_groups_group_name_groups_name_fk" FOREIGN KEY ("group_name") REFERENCES "public"."groups"("name") ON DELETE restrict ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "member_traits" ADD CONSTRAINT "member_traits_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "change_log_by_xid" ON "change_log" USING btree ("xid");--> statement-breakpoint
CREATE INDEX "change_log_by_time" ON "change_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "allocations_by_member_class" ON "allocations" USING btree ("member_id","resource_class","ledger");--> statement-breakpoint
CREATE INDEX "instance_profiles_by_profile" ON "instance_profiles" USING btree ("project","profile");--> statement-breakpoint
CREATE UNIQUE INDEX "instances_by_project_name" ON "instances" USING btree ("project","name") WHERE "instances"."name" <> '';--> statement-breakpoint
CREATE INDEX "instances_by_project" ON "instances" USING btree ("project","seq");--> statement-breakpoint
CREATE INDEX "instances_by_member" ON "instances" USING btree ("member_id","project","forthcoming","type");--> statement-breakpoint
CREATE INDEX "instances_by_placement_group" ON "instances" USING btree ("project","placement_group","member_id") WHERE "instances"."placement_group" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "instances_by_seq" ON "instances" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "inventories_by_class" ON "inventories" USING btree ("resource_class");--> statement-breakpoint
CREATE INDEX "member_groups_by_group" ON "member_groups" USING btree ("group_name");