DROP INDEX "employees_search_trgm_idx";--> statement-breakpoint
DROP INDEX "clients_created_at_idx";--> statement-breakpoint
CREATE INDEX "clients_first_name_idx" ON "clients" USING btree ("first_name","last_name","c_id");--> statement-breakpoint
CREATE INDEX "clients_client_id_prefix_idx" ON "clients" USING btree (lower("client_id") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "clients_first_name_prefix_idx" ON "clients" USING btree (lower("first_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "clients_last_name_prefix_idx" ON "clients" USING btree (lower("last_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "clients_email_prefix_idx" ON "clients" USING btree (lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "employees_created_at_idx" ON "employees" USING btree ("created_at","e_id");--> statement-breakpoint
CREATE INDEX "employees_employee_id_prefix_idx" ON "employees" USING btree (lower("employee_id") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "employees_first_name_prefix_idx" ON "employees" USING btree (lower("first_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "employees_last_name_prefix_idx" ON "employees" USING btree (lower("last_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "employees_email_prefix_idx" ON "employees" USING btree (lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "clients_created_at_idx" ON "clients" USING btree ("created_at","c_id");--> statement-breakpoint
ALTER TABLE "clients" DROP COLUMN "search";--> statement-breakpoint
ALTER TABLE "employees" DROP COLUMN "search";