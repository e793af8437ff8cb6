CREATE TABLE "consumer_allocations" (
	"consumer_uuid" text NOT NULL,
	"provider_uuid" text NOT NULL,
	"resource_class" text NOT NULL,
	"amount" bigint NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "consumer_allocations_consumer_uuid_provider_uuid_resource_class_pk" PRIMARY KEY("consumer_uuid","provider_uuid","resource_class")
);
--> statement-breakpoint
CREATE TABLE "consumers" (
	"uuid" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"user_id" text NOT NULL,
	"consumer_type" text,
	"generation" integer NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "providers" (
	"uuid" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"parent_uuid" text,
	"root_uuid" text NOT NULL,
	"generation" integer NOT NULL,
	"inventories" jsonb NOT NULL,
	"traits" jsonb NOT NULL,
	"aggregates" jsonb NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	CONSTRAINT "providers_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "traits" (
	"name" text PRIMARY KEY NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "consumer_allocations" ADD CONSTRAINT "consumer_allocations_consumer_uuid_consumers_uuid_fk" FOREIGN KEY ("consumer_uuid") REFERENCES "public"."consumers"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consumer_allocations" ADD CONSTRAINT "consumer_allocations_provider_uuid_providers_uuid_fk" FOREIGN KEY ("provider_uuid") REFERENCES "public"."providers"("uuid") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "providers" ADD CONSTRAINT "providers_parent_uuid_providers_uuid_fk" FOREIGN KEY ("parent_uuid") REFERENCES "public"."providers"("uuid") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consumer_allocations_by_provider" ON "consumer_allocations" USING btree ("provider_uuid","resource_class");--> statement-breakpoint
CREATE INDEX "consumers_by_project_user" ON "consumers" USING btree ("project_id","user_id");--> statement-breakpoint
CREATE INDEX "providers_by_parent" ON "providers" USING btree ("parent_uuid");