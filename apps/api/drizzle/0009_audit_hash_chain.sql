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
-- The head only moves forward and is never removed: one row, id 1.
CREATE OR REPLACE FUNCTION audit_chain_head_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' AND (SELECT count(*) FROM audit_chain_head) > 0 THEN
    RAISE EXCEPTION 'audit_chain_head has one row' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF TG_OP = 'UPDATE' AND (NEW.id <> OLD.id OR NEW.seq <= OLD.seq) THEN
    RAISE EXCEPTION 'audit_chain_head only moves forward' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF TG_OP IN ('DELETE', 'TRUNCATE') THEN
    RAISE EXCEPTION 'audit_chain_head is never removed' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_chain_head_guard_rows
  BEFORE INSERT OR UPDATE OR DELETE ON "audit_chain_head"
  FOR EACH ROW EXECUTE FUNCTION audit_chain_head_guard();
--> statement-breakpoint
CREATE TRIGGER audit_chain_head_guard_truncate
  BEFORE TRUNCATE ON "audit_chain_head"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_chain_head_guard();
