CREATE TYPE "public"."privilege" AS ENUM('Build', 'Analyze', 'Act', 'View');--> statement-breakpoint
CREATE TABLE "client_workbooks" (
	"c_id" integer NOT NULL,
	"workbook_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_workbooks_c_id_workbook_id_pk" PRIMARY KEY("c_id","workbook_id")
);
--> statement-breakpoint
CREATE TABLE "clients" (
	"c_id" serial PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"search" text GENERATED ALWAYS AS (lower(client_id || ' ' || first_name || ' ' || last_name || ' ' || email)) STORED NOT NULL,
	"privilege" "privilege" NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clients_client_id_unique" UNIQUE("client_id"),
	CONSTRAINT "clients_email_unique" UNIQUE("email"),
	CONSTRAINT "clients_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "employee_clients" (
	"e_id" integer NOT NULL,
	"c_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "employee_clients_e_id_c_id_pk" PRIMARY KEY("e_id","c_id")
);
--> statement-breakpoint
CREATE TABLE "employees" (
	"e_id" serial PRIMARY KEY NOT NULL,
	"employee_id" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"search" text GENERATED ALWAYS AS (lower(employee_id || ' ' || first_name || ' ' || last_name || ' ' || email)) STORED NOT NULL,
	"privilege" "privilege" NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "employees_employee_id_unique" UNIQUE("employee_id"),
	CONSTRAINT "employees_email_unique" UNIQUE("email"),
	CONSTRAINT "employees_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "table_row_counts" (
	"table_name" text PRIMARY KEY NOT NULL,
	"row_count" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workbooks" (
	"id" serial PRIMARY KEY NOT NULL,
	"workbook_name" text NOT NULL,
	"team_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workbooks_workbook_name_unique" UNIQUE("workbook_name")
);
--> statement-breakpoint
ALTER TABLE "client_workbooks" ADD CONSTRAINT "client_workbooks_c_id_clients_c_id_fk" FOREIGN KEY ("c_id") REFERENCES "public"."clients"("c_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_workbooks" ADD CONSTRAINT "client_workbooks_workbook_id_workbooks_id_fk" FOREIGN KEY ("workbook_id") REFERENCES "public"."workbooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employee_clients" ADD CONSTRAINT "employee_clients_e_id_employees_e_id_fk" FOREIGN KEY ("e_id") REFERENCES "public"."employees"("e_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employee_clients" ADD CONSTRAINT "employee_clients_c_id_clients_c_id_fk" FOREIGN KEY ("c_id") REFERENCES "public"."clients"("c_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employees" ADD CONSTRAINT "employees_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_workbooks_workbook_idx" ON "client_workbooks" USING btree ("workbook_id");--> statement-breakpoint
CREATE INDEX "clients_last_name_idx" ON "clients" USING btree ("last_name","first_name","c_id");--> statement-breakpoint
CREATE INDEX "clients_created_at_idx" ON "clients" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "employee_clients_client_idx" ON "employee_clients" USING btree ("c_id");--> statement-breakpoint
CREATE INDEX "employees_last_name_idx" ON "employees" USING btree ("last_name","first_name","e_id");--> statement-breakpoint
CREATE INDEX "employees_first_name_idx" ON "employees" USING btree ("first_name","last_name","e_id");--> statement-breakpoint
CREATE INDEX "employees_search_trgm_idx" ON "employees" USING gin ("search" gin_trgm_ops);