CREATE TABLE "audit_chain_head" (
	"id" integer PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"key_id" text
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "chain_seq" bigint;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "chain_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_chain_seq_idx" ON "audit_log" USING btree ("chain_seq");--> statement-breakpoint
-- The chain starts empty (seq 0, no previous hash); rows already in audit_log stay unchained.
INSERT INTO "audit_chain_head" ("id", "seq", "hash") VALUES (1, 0, '');
--> statement-breakpoint
-- Every row written from now on is chained; NOT VALID leaves the rows from before the chain alone.
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_chained"
  CHECK ("chain_seq" IS NOT NULL AND "chain_hash" IS NOT NULL) NOT VALID;
--> statement-breakpoint
-- The head only moves forward and is never removed: one row, id 1. The UPDATE trigger's WHEN clause is
-- evaluated without calling the function, so an append (which moves the head forward) pays nothing for it.
CREATE OR REPLACE FUNCTION audit_chain_head_reject() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_chain_head has one row, which only moves forward' USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_chain_head_forward_only
  BEFORE UPDATE ON "audit_chain_head"
  FOR EACH ROW WHEN (NEW.id <> OLD.id OR NEW.seq <= OLD.seq) EXECUTE FUNCTION audit_chain_head_reject();
--> statement-breakpoint
CREATE TRIGGER audit_chain_head_no_insert_delete
  BEFORE INSERT OR DELETE ON "audit_chain_head"
  FOR EACH ROW EXECUTE FUNCTION audit_chain_head_reject();
--> statement-breakpoint
CREATE TRIGGER audit_chain_head_no_truncate
  BEFORE TRUNCATE ON "audit_chain_head"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_chain_head_reject();
