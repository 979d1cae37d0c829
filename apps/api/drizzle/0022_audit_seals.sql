CREATE TABLE "audit_seals" (
	"first_seq" bigint PRIMARY KEY NOT NULL,
	"row_ids" bigint[] NOT NULL,
	"row_hashes" text[] NOT NULL,
	"sealed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "audit_log_chain_seq_idx";--> statement-breakpoint
ALTER TABLE "audit_chain_head" ADD COLUMN "sealed_snapshot" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "row_mac" text;--> statement-breakpoint
-- Added without its default, then given it: the rows already there keep no transaction id (a volatile
-- default in ADD COLUMN would rewrite the table and stamp every old row with this migration's).
ALTER TABLE "audit_log" ADD COLUMN "xid" "xid8";--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "xid" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
CREATE INDEX "audit_seals_row_ids_idx" ON "audit_seals" USING gin ("row_ids");--> statement-breakpoint
CREATE INDEX "audit_log_xid_idx" ON "audit_log" USING btree ("xid","id");--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_chain_seq_idx" ON "audit_log" USING btree ("chain_seq") WHERE "audit_log"."chain_seq" is not null;--> statement-breakpoint
-- Decision 023. Every row written from now on carries its own MAC and the transaction that wrote it (the
-- sealer's way to find it); rows of the first chain keep their link; NOT VALID leaves older rows alone.
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_chained";--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_chained"
  CHECK (("row_mac" IS NOT NULL AND "xid" IS NOT NULL) OR ("chain_seq" IS NOT NULL AND "chain_hash" IS NOT NULL)) NOT VALID;
--> statement-breakpoint
ALTER TABLE "audit_seals" ADD CONSTRAINT "audit_seals_links"
  CHECK (cardinality("row_ids") > 0 AND cardinality("row_ids") = cardinality("row_hashes"));
--> statement-breakpoint
-- Seals are append-only, like the trail.
CREATE OR REPLACE FUNCTION audit_seals_reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_seals is append-only' USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_seals_no_update_delete
  BEFORE UPDATE OR DELETE ON "audit_seals"
  FOR EACH ROW EXECUTE FUNCTION audit_seals_reject_change();
--> statement-breakpoint
CREATE TRIGGER audit_seals_no_truncate
  BEFORE TRUNCATE ON "audit_seals"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_seals_reject_change();
--> statement-breakpoint
-- Nothing committed before this point has a transaction id in audit_log: the first seal starts from here.
DROP TRIGGER "audit_chain_head_forward_only" ON "audit_chain_head";
--> statement-breakpoint
UPDATE "audit_chain_head" SET "sealed_snapshot" = pg_current_snapshot()::text WHERE "id" = 1;
--> statement-breakpoint
-- The head still only moves forward. Without moving it may change once: the first writer names its key
-- (writers no longer move the head, so the key is claimed on its own); once named, the key never changes.
CREATE TRIGGER audit_chain_head_forward_only
  BEFORE UPDATE ON "audit_chain_head"
  FOR EACH ROW WHEN (
    NEW.id <> OLD.id OR NEW.seq < OLD.seq
    OR (OLD.key_id IS NOT NULL AND NEW.key_id IS DISTINCT FROM OLD.key_id)
    OR (NEW.seq = OLD.seq AND (OLD.key_id IS NOT NULL OR NEW.hash <> OLD.hash
                               OR NEW.sealed_snapshot IS DISTINCT FROM OLD.sealed_snapshot))
  ) EXECUTE FUNCTION audit_chain_head_reject();
