-- Exact row totals for the admin lists without counting a million rows per request.
INSERT INTO "table_row_counts" ("table_name", "row_count") VALUES
  ('clients', (SELECT count(*) FROM "clients")),
  ('employees', (SELECT count(*) FROM "employees")),
  ('workbooks', (SELECT count(*) FROM "workbooks"));
--> statement-breakpoint
CREATE OR REPLACE FUNCTION table_row_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "table_row_counts" SET "row_count" = "row_count" + (SELECT count(*) FROM new_rows)
    WHERE "table_name" = TG_TABLE_NAME;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION table_row_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "table_row_counts" SET "row_count" = "row_count" - (SELECT count(*) FROM old_rows)
    WHERE "table_name" = TG_TABLE_NAME;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION table_row_counts_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "table_row_counts" SET "row_count" = 0 WHERE "table_name" = TG_TABLE_NAME;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER clients_count_insert AFTER INSERT ON "clients" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION table_row_counts_add();
--> statement-breakpoint
CREATE TRIGGER clients_count_delete AFTER DELETE ON "clients" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION table_row_counts_remove();
--> statement-breakpoint
CREATE TRIGGER clients_count_truncate AFTER TRUNCATE ON "clients"
  FOR EACH STATEMENT EXECUTE FUNCTION table_row_counts_reset();
--> statement-breakpoint
CREATE TRIGGER employees_count_insert AFTER INSERT ON "employees" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION table_row_counts_add();
--> statement-breakpoint
CREATE TRIGGER employees_count_delete AFTER DELETE ON "employees" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION table_row_counts_remove();
--> statement-breakpoint
CREATE TRIGGER employees_count_truncate AFTER TRUNCATE ON "employees"
  FOR EACH STATEMENT EXECUTE FUNCTION table_row_counts_reset();
--> statement-breakpoint
CREATE TRIGGER workbooks_count_insert AFTER INSERT ON "workbooks" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION table_row_counts_add();
--> statement-breakpoint
CREATE TRIGGER workbooks_count_delete AFTER DELETE ON "workbooks" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION table_row_counts_remove();
--> statement-breakpoint
CREATE TRIGGER workbooks_count_truncate AFTER TRUNCATE ON "workbooks"
  FOR EACH STATEMENT EXECUTE FUNCTION table_row_counts_reset();
