DROP INDEX "allocations_by_member_class";--> statement-breakpoint
CREATE INDEX "allocations_by_member" ON "allocations" USING btree ("member_id");