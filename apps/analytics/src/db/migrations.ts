import type { Database } from "./database.ts";

/**
 * The server's own state lives in schema `analytics` (members, teams, workbooks, the jti log, sessions,
 * API tokens); the row-security context in schema `rls`. Neither is readable by the reader role.
 * Each migration runs once, in order, in a transaction.
 */
const MIGRATIONS: readonly { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
create table analytics.members (
  member_id text primary key,
  email text not null,
  first_name text not null default '',
  last_name text not null default '',
  member_type text not null,
  user_kind text not null default 'embed',
  user_attributes jsonb not null default '{}'::jsonb,
  is_archived boolean not null default false,
  is_inactive boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index members_email_key on analytics.members (lower(email));

create table analytics.teams (
  team_id text primary key,
  name text not null,
  description text,
  is_archived boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index teams_name_key on analytics.teams (lower(name));

create table analytics.team_members (
  team_id text not null references analytics.teams (team_id) on delete cascade,
  member_id text not null references analytics.members (member_id) on delete cascade,
  is_team_admin boolean not null default false,
  primary key (team_id, member_id)
);
create index team_members_member_idx on analytics.team_members (member_id);

create table analytics.workbooks (
  workbook_id text primary key,
  url_id text not null unique,
  name text not null,
  path text not null default 'Workspaces/Advisory',
  latest_version integer not null default 1,
  is_archived boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table analytics.workbook_grants (
  workbook_id text not null references analytics.workbooks (workbook_id) on delete cascade,
  team_id text not null references analytics.teams (team_id) on delete cascade,
  primary key (workbook_id, team_id)
);

-- Every embed token's jti, kept until the token could no longer be valid anyway: a reused URL fails.
create table analytics.used_jtis (
  jti text primary key,
  kid text not null,
  member_email text not null,
  expires_at timestamptz not null,
  used_at timestamptz not null default now()
);
create index used_jtis_expires_idx on analytics.used_jtis (expires_at);

create table analytics.embed_sessions (
  token_hash text primary key,
  member_id text not null references analytics.members (member_id) on delete cascade,
  workbook_id text not null references analytics.workbooks (workbook_id) on delete cascade,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index embed_sessions_expires_idx on analytics.embed_sessions (expires_at);

create table analytics.api_tokens (
  token_hash text primary key,
  client_id text not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index api_tokens_expires_idx on analytics.api_tokens (expires_at);
`,
  },
  {
    // Sigma's published shapes: audit fields and home folders of members, team visibility and who added whom,
    // workbook owners, grants by id to a team or a member with a permission, account types, user attributes,
    // refresh tokens. A null `created_by`/`updated_by`/`added_by`/`owner_id` is the organisation's owner,
    // the member the API and embed credentials belong to (rest/shared.ts).
    version: 2,
    sql: `
alter table analytics.members
  add column created_by text,
  add column updated_by text,
  add column profile_img_url text,
  add column home_folder_id text not null default gen_random_uuid()::text;

alter table analytics.teams
  add column created_by text,
  add column updated_by text,
  add column visibility text default 'private' check (visibility in ('public', 'private')),
  add column workspace_id text;

alter table analytics.team_members add column added_by text;

alter table analytics.workbooks
  add column description text,
  add column owner_id text,
  add column created_by text,
  add column updated_by text;

alter table analytics.workbook_grants drop constraint workbook_grants_pkey;
alter table analytics.workbook_grants
  add column grant_id text not null default gen_random_uuid()::text primary key,
  add column member_id text references analytics.members (member_id) on delete cascade,
  add column permission text not null default 'view' check (permission in ('view', 'explore', 'edit')),
  add column created_by text,
  add column updated_by text,
  add column created_at timestamptz not null default now(),
  add column updated_at timestamptz not null default now();
alter table analytics.workbook_grants alter column team_id drop not null;
alter table analytics.workbook_grants
  add constraint workbook_grants_one_grantee check (num_nonnulls(team_id, member_id) = 1);
create unique index workbook_grants_team_key on analytics.workbook_grants (workbook_id, team_id)
  where team_id is not null;
create unique index workbook_grants_member_key on analytics.workbook_grants (workbook_id, member_id)
  where member_id is not null;
create index workbook_grants_team_idx on analytics.workbook_grants (team_id);
create index workbook_grants_member_idx on analytics.workbook_grants (member_id);

create table analytics.account_types (
  account_type_id text primary key,
  name text not null unique,
  description text not null,
  is_custom boolean not null default false,
  position integer not null
);
insert into analytics.account_types (account_type_id, name, description, position) values
  (gen_random_uuid()::text, 'View', 'View and interact with the documents shared with them.', 1),
  (gen_random_uuid()::text, 'Act', 'View, and act on data: input tables and actions.', 2),
  (gen_random_uuid()::text, 'Analyze', 'Act, and explore and analyze the data of shared documents.', 3),
  (gen_random_uuid()::text, 'Build', 'Analyze, and create and edit documents and data models.', 4);

create table analytics.user_attributes (
  user_attribute_id text primary key,
  name text not null,
  description text,
  default_value text,
  created_by text,
  updated_by text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index user_attributes_name_key on analytics.user_attributes (lower(name));
insert into analytics.user_attributes (user_attribute_id, name, description) values
  (gen_random_uuid()::text, 'client_id', 'The client whose figures a client sees (row-level security).'),
  (gen_random_uuid()::text, 'client_ids', 'Comma-separated clients an employee may see (row-level security).');

alter table analytics.api_tokens
  add column refresh_hash text unique,
  add column refresh_expires_at timestamptz;
`,
  },
];

export async function migrate(db: Database): Promise<void> {
  await db.exec(`
    create schema if not exists analytics;
    revoke all on schema analytics from public;
    create table if not exists analytics.schema_migrations (
      version integer primary key,
      applied_at timestamptz not null default now()
    );`);
  for (const m of MIGRATIONS) {
    await db.transaction(async (tx) => {
      // Serialise concurrent boots against one database.
      await tx.query("select pg_advisory_xact_lock(7310001)");
      const done = await tx.query("select 1 from analytics.schema_migrations where version = $1", [
        m.version,
      ]);
      if (done.rows.length > 0) return;
      await tx.exec(m.sql);
      await tx.query("insert into analytics.schema_migrations (version) values ($1)", [m.version]);
    });
  }
}
