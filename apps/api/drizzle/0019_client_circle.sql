CREATE TABLE "delegation_workbooks" (
	"delegation_id" integer NOT NULL,
	"workbook_id" integer NOT NULL,
	CONSTRAINT "delegation_workbooks_delegation_id_workbook_id_pk" PRIMARY KEY("delegation_id","workbook_id")
);
--> statement-breakpoint
CREATE TABLE "delegations" (
	"id" serial PRIMARY KEY NOT NULL,
	"c_id" integer NOT NULL,
	"user_id" text NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"all_workbooks" boolean DEFAULT true NOT NULL,
	"expires_at" timestamp with time zone,
	"created_by_user_id" text,
	"accepted_at" timestamp with time zone,
	"last_viewed_at" timestamp with time zone,
	"reminder_sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "firm_policies" (
	"id" integer PRIMARY KEY NOT NULL,
	"clients_may_invite" boolean DEFAULT true NOT NULL,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "household_members" (
	"household_id" integer NOT NULL,
	"c_id" integer NOT NULL,
	CONSTRAINT "household_members_household_id_c_id_pk" PRIMARY KEY("household_id","c_id")
);
--> statement-breakpoint
CREATE TABLE "households" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"combined_view" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "delegation_workbooks" ADD CONSTRAINT "delegation_workbooks_delegation_id_delegations_id_fk" FOREIGN KEY ("delegation_id") REFERENCES "public"."delegations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegation_workbooks" ADD CONSTRAINT "delegation_workbooks_workbook_id_workbooks_id_fk" FOREIGN KEY ("workbook_id") REFERENCES "public"."workbooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_c_id_clients_c_id_fk" FOREIGN KEY ("c_id") REFERENCES "public"."clients"("c_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "household_members" ADD CONSTRAINT "household_members_household_id_households_id_fk" FOREIGN KEY ("household_id") REFERENCES "public"."households"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "household_members" ADD CONSTRAINT "household_members_c_id_clients_c_id_fk" FOREIGN KEY ("c_id") REFERENCES "public"."clients"("c_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delegation_workbooks_workbook_idx" ON "delegation_workbooks" USING btree ("workbook_id");--> statement-breakpoint
CREATE UNIQUE INDEX "delegations_client_user_idx" ON "delegations" USING btree ("c_id","user_id");--> statement-breakpoint
CREATE INDEX "delegations_user_idx" ON "delegations" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "delegations_reminder_idx" ON "delegations" USING btree ("expires_at") WHERE "delegations"."reminder_sent_at" is null and "delegations"."expires_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "household_members_client_idx" ON "household_members" USING btree ("c_id");