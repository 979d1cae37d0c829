CREATE TABLE "firm_branding" (
	"id" integer PRIMARY KEY NOT NULL,
	"firm_name" text NOT NULL,
	"primary_colour" text NOT NULL,
	"support_email" text NOT NULL,
	"logo_base64" text,
	"logo_type" text,
	"logo_sha256" text,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
