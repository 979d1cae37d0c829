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
