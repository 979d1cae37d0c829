CREATE TABLE "bi_members" (
	"email" text PRIMARY KEY NOT NULL,
	"member_id" text NOT NULL,
	"user_kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
