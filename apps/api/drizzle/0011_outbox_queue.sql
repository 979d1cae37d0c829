ALTER TABLE "provisioning_requests" ADD COLUMN "seq" bigserial NOT NULL;--> statement-breakpoint
ALTER TABLE "provisioning_requests" ADD COLUMN "subject" text;--> statement-breakpoint
-- Rows written before the queue: their order is their creation order, their subject the member or team.
UPDATE "provisioning_requests" p SET "seq" = o.n
  FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM "provisioning_requests") o
 WHERE p.id = o.id;--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('provisioning_requests', 'seq'), greatest((SELECT max(seq) FROM "provisioning_requests"), 1));--> statement-breakpoint
UPDATE "provisioning_requests" SET "subject" = CASE WHEN kind LIKE 'team.%' THEN 'team:' || (payload->>'name')
  ELSE lower(payload->>'email') END;--> statement-breakpoint
UPDATE "provisioning_requests" SET "subject" = 'unknown:' || id WHERE "subject" IS NULL;--> statement-breakpoint
ALTER TABLE "provisioning_requests" ALTER COLUMN "subject" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "provisioning_requests" ADD COLUMN "waiting_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "provisioning_requests" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "provisioning_requests" ADD COLUMN "lease_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "provisioning_requests" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "provisioning_requests_seq_idx" ON "provisioning_requests" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "provisioning_requests_open_idx" ON "provisioning_requests" USING btree ("seq") WHERE status <> 'done';--> statement-breakpoint
CREATE INDEX "provisioning_requests_open_subject_idx" ON "provisioning_requests" USING btree ("subject","seq") WHERE status <> 'done';--> statement-breakpoint
CREATE INDEX "provisioning_requests_open_user_idx" ON "provisioning_requests" USING btree ("user_id","seq") WHERE status <> 'done';