import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

// ---- Identity tables (shape required by Better Auth + its admin and jwt plugins) ----

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  role: text("role"),
  banned: boolean("banned").default(false),
  banReason: text("ban_reason"),
  banExpires: timestamp("ban_expires", { withTimezone: true }),
  /** Better Auth's twoFactor plugin: true once a TOTP secret is confirmed with a code (decision 006). */
  twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
  ...timestamps,
});

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    impersonatedBy: text("impersonated_by"),
    /**
     * How the person signed in (issue 24): `password` (the password alone), `code` (the password, then a
     * code: authenticator app, email or backup code), `passkey`, `password_passkey` (the password, then the
     * passkey just added during enrolment), `social`. Set by the session's create hook (auth/sign-in-method.ts).
     */
    signInMethod: text("sign_in_method"),
    ...timestamps,
  },
  (t) => [index("sessions_user_id_idx").on(t.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    ...timestamps,
  },
  (t) => [index("accounts_user_id_idx").on(t.userId)],
);

export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (t) => [index("verifications_identifier_idx").on(t.identifier)],
);

export const jwks = pgTable("jwks", {
  id: text("id").primaryKey(),
  publicKey: text("public_key").notNull(),
  privateKey: text("private_key").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp("expires_at", { withTimezone: true }),
});

/**
 * Better Auth's twoFactor plugin: one row per person who started or finished enrolment. The TOTP secret and
 * the backup codes are encrypted with the auth secret; a used backup code is removed from the list.
 */
export const twoFactors = pgTable(
  "two_factor",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** False between "enable" and the first correct code. */
    verified: boolean("verified").notNull().default(true),
    failedVerificationCount: integer("failed_verification_count").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    /**
     * The 30-second time steps whose code was accepted lately: each code works once (ASVS 5.0 6.5.1;
     * decision 006). Steps older than the verification window are dropped on the next claim.
     */
    usedTotpSteps: bigint("used_totp_steps", { mode: "number" })
      .array()
      .notNull()
      .default(sql`'{}'::bigint[]`),
  },
  (t) => [uniqueIndex("two_factor_user_id_idx").on(t.userId)],
);

/**
 * Better Auth's passkey plugin (issue 24): one WebAuthn credential per row. `name` is the person's own label;
 * `lastUsedAt` is the portal's, set after each sign-in with the passkey.
 */
export const passkeys = pgTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    name: text("name"),
    publicKey: text("public_key").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    credentialID: text("credential_id").notNull(),
    counter: integer("counter").notNull(),
    deviceType: text("device_type").notNull(),
    backedUp: boolean("backed_up").notNull(),
    transports: text("transports"),
    aaguid: text("aaguid"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [
    index("passkeys_user_id_idx").on(t.userId),
    uniqueIndex("passkeys_credential_id_idx").on(t.credentialID),
  ],
);

/**
 * The browsers a person has signed in from (issue 24): a signed long-lived cookie names `deviceId`; a sign-in
 * from a browser not listed here mails the person a new-device alert.
 */
export const knownDevices = pgTable(
  "known_devices",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deviceId: text("device_id").notNull(),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceId] })],
);

/** Better Auth's per-IP request limiter keeps its counters here so they survive restarts. */
export const rateLimits = pgTable("rate_limits", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: bigint("count", { mode: "number" }).notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

/**
 * The portal's own limiters (per-account sign-in and second-step failures, decision 008): one row a key,
 * counted with one atomic upsert by rate-limiter-flexible's Drizzle store, so parallel requests and every
 * instance on the database share the count.
 */
export const limiterCounters = pgTable("limiter_counters", {
  key: text("key").primaryKey(),
  points: integer("points").notNull().default(0),
  expire: timestamp("expire", { withTimezone: true }),
});

// ---- Portal tables ----

/** PostgreSQL's 64-bit transaction id (`pg_current_xact_id()`), read as text. */
const xid8 = customType<{ data: string }>({ dataType: () => "xid8" });

/**
 * Append-only audit trail. The migration adds a trigger that rejects UPDATE and DELETE, so the
 * application has no path to rewrite history; each row's `row_mac` (decision 023) and the seals that
 * chain the rows (`audit_seals`) make a rewrite by anyone who gets past the trigger visible to
 * `npm run audit:verify`. Rows of the first chain (decision 007) carry `chain_seq`/`chain_hash` instead;
 * rows written before any chain have neither (a NOT VALID check requires one or the other from then on).
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull().defaultNow(),
    actorUserId: text("actor_user_id"),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    outcome: text("outcome").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    requestId: text("request_id"),
    before: jsonb("before"),
    after: jsonb("after"),
    details: jsonb("details"),
    /** Rows of the first chain (decision 007): position in the hash chain, 1, 2, 3… with no gaps. */
    chainSeq: bigint("chain_seq", { mode: "number" }),
    /** Rows of the first chain: HMAC-SHA256 of this row's fields and the previous row's chain_hash. */
    chainHash: text("chain_hash"),
    /** HMAC-SHA256 (key outside the database) of this row's id and fields, written with the row (023). */
    rowMac: text("row_mac"),
    /** The writing transaction: lets the sealer find rows committed since its last seal, late ones too. */
    xid: xid8("xid").default(sql`pg_current_xact_id()`),
  },
  (t) => [
    // The audit log screen reads newest first by (occurred_at, id) under every filter: each filter's index
    // ends in those columns, so a page is one short index range (admin/audit.ts).
    index("audit_log_occurred_at_idx").on(t.occurredAt, t.id),
    index("audit_log_actor_idx").on(t.actorUserId, t.occurredAt, t.id),
    index("audit_log_actor_email_idx").on(t.actorEmail, t.occurredAt, t.id),
    index("audit_log_target_idx").on(t.targetType, t.targetId, t.occurredAt, t.id),
    index("audit_log_action_idx").on(t.action, t.outcome, t.occurredAt, t.id),
    index("audit_log_outcome_idx").on(t.outcome, t.occurredAt, t.id),
    // The person filter finds a client's or employee's record after it was deleted by the row that created it.
    index("audit_log_created_email_idx")
      .on(sql`(${t.after}->>'email')`)
      .where(sql`${t.action} in ('client.created', 'employee.created')`),
    uniqueIndex("audit_log_chain_seq_idx")
      .on(t.chainSeq)
      .where(sql`${t.chainSeq} is not null`),
    index("audit_log_xid_idx").on(t.xid, t.id),
  ],
);

/**
 * The audit chain's last link, one row: the sealer moves it forward in the transaction that writes its
 * seals, holding its row lock, so two sealers cannot fork the chain (decision 023). `key_id` names the
 * key the chain is written with (not the key itself); `sealed_snapshot` is the snapshot of the last seal:
 * every row whose transaction it shows as committed is sealed.
 */
export const auditChainHead = pgTable("audit_chain_head", {
  id: integer("id").primaryKey(),
  seq: bigint("seq", { mode: "number" }).notNull(),
  hash: text("hash").notNull(),
  keyId: text("key_id"),
  /** A `pg_snapshot` as text; set by the migration, then by every seal. */
  sealedSnapshot: text("sealed_snapshot"),
});

/**
 * One seal: the next links of the audit chain, for rows written since the seal before (decision 023).
 * Row i of `row_ids` holds chain position `first_seq + i`; `row_hashes[i]` is that position's link,
 * an HMAC of the position, the previous link, the row's id and its `row_mac`. Append-only (triggers).
 */
export const auditSeals = pgTable(
  "audit_seals",
  {
    firstSeq: bigint("first_seq", { mode: "number" }).primaryKey(),
    rowIds: bigint("row_ids", { mode: "number" }).array().notNull(),
    rowHashes: text("row_hashes").array().notNull(),
    sealedAt: timestamp("sealed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // The audit log screen shows a row's chain position: which seal holds the row.
  (t) => [index("audit_seals_row_ids_idx").using("gin", t.rowIds)],
);

/**
 * What each secret setting the database depends on was when this database first met it, as a fingerprint
 * (an HMAC under a key derived from the secret: it names the secret without revealing it). An instance
 * started with another BETTER_AUTH_SECRET or embed secret is refused at start (issue 25), instead of
 * answering one sign-in or embed in N wrongly behind a load balancer. The audit key has its own in
 * `audit_chain_head.key_id`.
 */
export const secretFingerprints = pgTable("secret_fingerprints", {
  /** The setting, e.g. BETTER_AUTH_SECRET, or SIGMA_EMBED_SECRET for one client id. */
  name: text("name").primaryKey(),
  fingerprint: text("fingerprint").notNull(),
  recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Durable record of work to send to the BI service (Sigma or the built-in analytics server): a leased
 * work queue. Written in the same transaction as the change that causes it; any instance's worker claims
 * a due row (`FOR UPDATE SKIP LOCKED`, a lease until `lease_expires_at`), delivers it and settles it.
 * Rows of one person (`user_id`) or one BI member or team (`subject`) go strictly in `seq` order.
 */
/**
 * The BI service's member for an email, as the outbox last found or made it. `userKind` other than `embed`
 * is someone who also signs in to Sigma directly: linked, but never changed by the portal, and their embed
 * tokens carry no user claims (Sigma manages their account type, teams and attributes).
 */
export const biMembers = pgTable("bi_members", {
  /** Lower case. */
  email: text("email").primaryKey(),
  memberId: text("member_id").notNull(),
  userKind: text("user_kind").notNull(),
  ...timestamps,
});

export const provisioningRequests = pgTable(
  "provisioning_requests",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    /** Queue order: a row waits while an earlier row of the same person or subject is not delivered. */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The BI member's email (lower case) or `team:<name>`: the thing in the BI service the row changes. */
    subject: text("subject").notNull(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").notNull(),
    /** pending (to deliver, maybe waiting for the BI service), done, or failed (refused by the BI service). */
    status: text("status").notNull().default("pending"),
    /** Deliveries started (claims). */
    attempts: bigint("attempts", { mode: "number" }).notNull().default(0),
    lastError: text("last_error"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** Since when the row has been waiting for an unreachable or overloaded BI service; null otherwise. */
    waitingSince: timestamp("waiting_since", { withTimezone: true }),
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index("provisioning_requests_status_idx").on(t.status, t.nextAttemptAt),
    index("provisioning_requests_user_idx").on(t.userId, t.createdAt),
    uniqueIndex("provisioning_requests_seq_idx").on(t.seq),
    // The queue's own lookups touch only rows not yet delivered, however long the history grows.
    index("provisioning_requests_open_idx")
      .on(t.seq)
      .where(sql`status <> 'done'`),
    index("provisioning_requests_open_subject_idx")
      .on(t.subject, t.seq)
      .where(sql`status <> 'done'`),
    index("provisioning_requests_open_user_idx")
      .on(t.userId, t.seq)
      .where(sql`status <> 'done'`),
  ],
);

// ---- Back office: the workbook catalogue, clients, employees and their assignments ----

export const privilege = pgEnum("privilege", ["Build", "Analyze", "Act", "View"]);

export const workbooks = pgTable("workbooks", {
  id: serial("id").primaryKey(),
  /** The Sigma URL segment `<Name>-<workbookUrlId>`. */
  workbookName: text("workbook_name").notNull().unique(),
  teamName: text("team_name").notNull(),
  ...timestamps,
});

export const clients = pgTable(
  "clients",
  {
    cId: serial("c_id").primaryKey(),
    clientId: text("client_id").notNull().unique(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    /** Copy of the sign-in email (which never changes), so the list search needs no join. */
    email: text("email").notNull().unique(),
    privilege: privilege("privilege").notNull(),
    userId: text("user_id")
      .notNull()
      .unique()
      .references(() => users.id),
    ...timestamps,
  },
  (t) => [
    index("clients_last_name_idx").on(t.lastName, t.firstName, t.cId),
    index("clients_first_name_idx").on(t.firstName, t.lastName, t.cId),
    index("clients_created_at_idx").on(t.createdAt, t.cId),
    // Search: each word of q matches the start of one of these (see docs/decisions/003).
    index("clients_client_id_prefix_idx").on(sql`lower(${t.clientId}) text_pattern_ops`),
    index("clients_first_name_prefix_idx").on(sql`lower(${t.firstName}) text_pattern_ops`),
    index("clients_last_name_prefix_idx").on(sql`lower(${t.lastName}) text_pattern_ops`),
    index("clients_email_prefix_idx").on(sql`lower(${t.email}) text_pattern_ops`),
  ],
);

export const employees = pgTable(
  "employees",
  {
    eId: serial("e_id").primaryKey(),
    employeeId: text("employee_id").notNull().unique(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email").notNull().unique(),
    privilege: privilege("privilege").notNull(),
    userId: text("user_id")
      .notNull()
      .unique()
      .references(() => users.id),
    ...timestamps,
  },
  (t) => [
    index("employees_last_name_idx").on(t.lastName, t.firstName, t.eId),
    index("employees_first_name_idx").on(t.firstName, t.lastName, t.eId),
    index("employees_created_at_idx").on(t.createdAt, t.eId),
    index("employees_employee_id_prefix_idx").on(sql`lower(${t.employeeId}) text_pattern_ops`),
    index("employees_first_name_prefix_idx").on(sql`lower(${t.firstName}) text_pattern_ops`),
    index("employees_last_name_prefix_idx").on(sql`lower(${t.lastName}) text_pattern_ops`),
    index("employees_email_prefix_idx").on(sql`lower(${t.email}) text_pattern_ops`),
  ],
);

export const clientWorkbooks = pgTable(
  "client_workbooks",
  {
    cId: integer("c_id")
      .notNull()
      .references(() => clients.cId, { onDelete: "cascade" }),
    workbookId: integer("workbook_id")
      .notNull()
      .references(() => workbooks.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.cId, t.workbookId] }),
    index("client_workbooks_workbook_idx").on(t.workbookId),
  ],
);

export const employeeClients = pgTable(
  "employee_clients",
  {
    eId: integer("e_id")
      .notNull()
      .references(() => employees.eId, { onDelete: "cascade" }),
    cId: integer("c_id")
      .notNull()
      .references(() => clients.cId, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.eId, t.cId] }), index("employee_clients_client_idx").on(t.cId)],
);

/** Row counts kept by triggers, so list totals stay cheap with a million clients. */
export const tableRowCounts = pgTable("table_row_counts", {
  tableName: text("table_name").primaryKey(),
  rowCount: bigint("row_count", { mode: "number" }).notNull(),
});

// ---- CSV import of clients and employees (decision 013) ----

/**
 * One uploaded file: previewed (`preview`), then imported by a worker on any instance in batches
 * (`queued`, `running`, `done`). A worker holds the job with a lease, so another instance takes it over when
 * the lease of a stopped one ends.
 */
export const importJobs = pgTable(
  "import_jobs",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    /** client or employee. */
    kind: text("kind").notNull(),
    fileName: text("file_name").notNull(),
    status: text("status").notNull().default("preview"),
    /** The file's header cells, and the field → column index mapping in use. */
    headers: jsonb("headers").notNull(),
    mapping: jsonb("mapping").notNull(),
    /** Rows in the file; how each ended is counted from `import_rows`. */
    total: integer("total").notNull().default(0),
    /** Who uploaded it (and started it): the actor of every audit row the import writes. */
    actorUserId: text("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    actorEmail: text("actor_email").notNull(),
    actorIp: text("actor_ip"),
    actorUserAgent: text("actor_user_agent"),
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index("import_jobs_open_idx")
      .on(t.createdAt)
      .where(sql`status in ('queued', 'running')`),
  ],
);

/**
 * One row of an uploaded file: its cells as read, and its outcome. A password cell is kept only while the
 * row waits to be imported, and blanked when the row is settled or refused (decision 013).
 */
export const importRows = pgTable(
  "import_rows",
  {
    jobId: uuid("job_id")
      .notNull()
      .references(() => importJobs.id, { onDelete: "cascade" }),
    /** The row's line number in the file. */
    line: integer("line").notNull(),
    cells: jsonb("cells").notNull(),
    /** ok, invalid, skipped (at preview); pending, created, skipped, failed (importing). */
    status: text("status").notNull(),
    reason: text("reason"),
  },
  (t) => [
    primaryKey({ columns: [t.jobId, t.line] }),
    index("import_rows_pending_idx")
      .on(t.jobId, t.line)
      .where(sql`status = 'pending'`),
  ],
);

export const schema = {
  users,
  sessions,
  accounts,
  verifications,
  jwks,
  rateLimits,
  limiterCounters,
  twoFactors,
  passkeys,
  knownDevices,
  auditLog,
  auditChainHead,
  auditSeals,
  secretFingerprints,
  provisioningRequests,
  privilege,
  workbooks,
  clients,
  employees,
  clientWorkbooks,
  employeeClients,
  tableRowCounts,
  importJobs,
  importRows,
};

// ---- Firm branding (/admin/settings, decision 014) ----

/**
 * The firm's name, primary colour, support email and logo: one row (id 1), absent until an admin saves the
 * settings (the portal then wears the demo firm, `DEFAULT_BRANDING`). The logo is kept as it was checked and
 * cleaned (base64, PNG or sanitised SVG), with its type and SHA-256, which versions its URL.
 */
export const firmBranding = pgTable("firm_branding", {
  id: integer("id").primaryKey(),
  firmName: text("firm_name").notNull(),
  primaryColour: text("primary_colour").notNull(),
  supportEmail: text("support_email").notNull(),
  logoBase64: text("logo_base64"),
  logoType: text("logo_type"),
  logoSha256: text("logo_sha256"),
  updatedBy: text("updated_by"),
  ...timestamps,
});

// ---- Invitations (issue 13 point 1, DEVIATIONS D55) ----

/**
 * One invitation link sent to a client or employee added without a password: the SHA-256 of its single-use
 * token (the token itself is only in the email), until when it works, and how it ended (accepted, revoked, or
 * replaced by a resent one). `person_id` is the `c_id` / `e_id` it was sent for, so a link never passes to
 * another record that later reuses the same sign-in account (a deleted person's address added again).
 */
export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** client or employee. */
    kind: text("kind").notNull(),
    personId: integer("person_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    sentBy: text("sent_by"),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    replacedAt: timestamp("replaced_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("invitations_token_hash_idx").on(t.tokenHash),
    index("invitations_person_idx").on(t.kind, t.personId, t.createdAt),
    index("invitations_user_idx").on(t.userId, t.createdAt),
  ],
);

// ---- A client's circle (issue 23, decision 020) ----

/**
 * A client's delegate: a person with their own sign-in (`user_id`) the client invited to view their workbooks,
 * all of them (`all_workbooks`, also those assigned later) or those in `delegation_workbooks`, until
 * `expires_at` (null: until revoked). It counts only once accepted (`accepted_at`, through the invitation
 * link, `invitations.kind = 'delegate'`, `person_id` = this id). Revoking deletes the row; the audit log keeps
 * its history.
 */
export const delegations = pgTable(
  "delegations",
  {
    id: serial("id").primaryKey(),
    cId: integer("c_id")
      .notNull()
      .references(() => clients.cId, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The address and name the client invited (the delegate's own account may carry another name). */
    email: text("email").notNull(),
    name: text("name").notNull(),
    allWorkbooks: boolean("all_workbooks").notNull().default(true),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    createdByUserId: text("created_by_user_id"),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    lastViewedAt: timestamp("last_viewed_at", { withTimezone: true }),
    /** The client was mailed that the end date is a week away. */
    reminderSentAt: timestamp("reminder_sent_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("delegations_client_user_idx").on(t.cId, t.userId),
    index("delegations_user_idx").on(t.userId),
    index("delegations_reminder_idx")
      .on(t.expiresAt)
      .where(sql`${t.reminderSentAt} is null and ${t.expiresAt} is not null`),
  ],
);

export const delegationWorkbooks = pgTable(
  "delegation_workbooks",
  {
    delegationId: integer("delegation_id")
      .notNull()
      .references(() => delegations.id, { onDelete: "cascade" }),
    workbookId: integer("workbook_id")
      .notNull()
      .references(() => workbooks.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.delegationId, t.workbookId] }),
    index("delegation_workbooks_workbook_idx").on(t.workbookId),
  ],
);

/** Clients an admin groups; with `combined_view`, each member's own embed carries every member's client id. */
export const households = pgTable("households", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  combinedView: boolean("combined_view").notNull().default(false),
  ...timestamps,
});

/** A client is in one household at most (`c_id` unique). */
export const householdMembers = pgTable(
  "household_members",
  {
    householdId: integer("household_id")
      .notNull()
      .references(() => households.id, { onDelete: "cascade" }),
    cId: integer("c_id")
      .notNull()
      .references(() => clients.cId, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.householdId, t.cId] }),
    uniqueIndex("household_members_client_idx").on(t.cId),
  ],
);

/** The firm's policies set on /admin/settings: one row (id 1), absent until first saved (the defaults apply). */
export const firmPolicies = pgTable("firm_policies", {
  id: integer("id").primaryKey(),
  /** "Clients may invite people to view their workbooks" (on by default). */
  clientsMayInvite: boolean("clients_may_invite").notNull().default(true),
  /**
   * "Require two-step verification for" (issue 24): the roles besides admin (always) that must have a second
   * step. Null until an admin first saves it: then MFA_REQUIRED_ROLES, the start-up default, applies.
   */
  mfaRequiredRoles: text("mfa_required_roles").array(),
  /** "Allow a six-digit code by email as the second step" (issue 24; off by default). */
  emailCodes: boolean("email_codes").notNull().default(false),
  updatedBy: text("updated_by"),
  ...timestamps,
});
