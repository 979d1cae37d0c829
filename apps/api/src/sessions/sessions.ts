import { runWithTransaction } from "@better-auth/core/context";
import { PEOPLE, ZSignInMethodSchema, type TPersonKind, type TSession } from "@portal/contracts";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import type { AuditSource } from "../audit/audit.ts";
import { recordAudit } from "../audit/audit.ts";
import { AUTH_TABLES, type Auth } from "../auth/auth.ts";
import type { Database, Transaction } from "../db/client.ts";
import { notFound } from "../lib/errors.ts";
import { describeUserAgent } from "./user-agent.ts";

type InternalAdapter = Awaited<Auth["$context"]>["internalAdapter"];
type AuthSession = Awaited<ReturnType<InternalAdapter["listSessions"]>>[number];

/** The person whose sessions these are, and the session of the request (kept by "all other sessions"). */
export interface SessionOwner {
  userId: string;
  email: string;
  sessionId: string;
}

/** Who ends sessions, and from where: goes into the audit row. */
export type SessionActor = { userId: string; email: string } & AuditSource;

/**
 * Runs `work` in one portal transaction in which Better Auth's own session calls (its internal adapter,
 * with its database hooks) use that transaction too: the sessions end together with their audit row, or
 * not at all.
 */
export async function inAuthTransaction<T>(
  auth: Auth,
  db: Database,
  work: (tx: Transaction, sessions: InternalAdapter) => Promise<T>,
): Promise<T> {
  const { internalAdapter } = await auth.$context;
  return db.transaction(async (tx) => {
    const adapter = drizzleAdapter(tx, { provider: "pg", schema: AUTH_TABLES })(auth.options);
    return runWithTransaction(adapter, () => work(tx, internalAdapter));
  });
}

const live = (sessions: AuthSession[]) =>
  sessions.filter((s) => new Date(s.expiresAt).getTime() > Date.now());

/** What the profile shows of a session: never its token. */
function toListed(session: AuthSession, currentId: string): TSession {
  // Better Auth's additional session field (auth.ts), noted when the session was made.
  const method = ZSignInMethodSchema.safeParse(
    (session as AuthSession & { signInMethod?: unknown }).signInMethod,
  );
  return {
    id: session.id,
    ...describeUserAgent(session.userAgent),
    ip: session.ipAddress ?? null,
    signed_in_at: new Date(session.createdAt).toISOString(),
    last_active_at: new Date(session.updatedAt).toISOString(),
    expires_at: new Date(session.expiresAt).toISOString(),
    current: session.id === currentId,
    sign_in_method: method.success ? method.data : null,
  };
}

/** The person's live sessions: this device first, then the most recently active. */
export async function listOwnSessions(auth: Auth, owner: SessionOwner): Promise<TSession[]> {
  const { internalAdapter } = await auth.$context;
  const sessions = live(await internalAdapter.listSessions(owner.userId));
  return sessions
    .map((s) => toListed(s, owner.sessionId))
    .sort(
      (a, b) => Number(b.current) - Number(a.current) || b.last_active_at.localeCompare(a.last_active_at),
    );
}

const auditSource = (source: AuditSource) => ({
  ip: source.ip ?? null,
  userAgent: source.userAgent ?? null,
  requestId: source.requestId ?? null,
});

/**
 * "Sign out" of one of the person's sessions. Another person's session, or one that has ended, is a 404
 * that changes nothing (its attempt is audited as denied).
 */
export async function revokeOwnSession(
  auth: Auth,
  db: Database,
  owner: SessionOwner,
  sessionId: string,
  source: AuditSource,
): Promise<void> {
  const actor = { actorUserId: owner.userId, actorEmail: owner.email, ...auditSource(source) };
  const revoked = await inAuthTransaction(auth, db, async (tx, sessions) => {
    const session = live(await sessions.listSessions(owner.userId)).find((s) => s.id === sessionId);
    if (!session) return false;
    await sessions.deleteSession(session.token);
    await recordAudit(tx, {
      action: "session.revoked",
      outcome: "success",
      targetType: "session",
      targetId: session.id,
      details: {
        current: session.id === owner.sessionId,
        ...describeUserAgent(session.userAgent),
        sessionIp: session.ipAddress ?? null,
      },
      ...actor,
    });
    return true;
  });
  if (!revoked) {
    await recordAudit(db, {
      action: "session.revoked",
      outcome: "denied",
      targetType: "session",
      targetId: sessionId,
      ...actor,
    });
    throw notFound("This session is not signed in any more.");
  }
}

/** "Sign out of all other sessions": every session of the person but this request's. Answers how many ended. */
export async function revokeOtherSessions(
  auth: Auth,
  db: Database,
  owner: SessionOwner,
  source: AuditSource,
): Promise<number> {
  return inAuthTransaction(auth, db, async (tx, sessions) => {
    const others = (await sessions.listSessions(owner.userId)).filter((s) => s.id !== owner.sessionId);
    if (others.length > 0) await sessions.deleteSessions(others.map((s) => s.token));
    const revoked = live(others).length;
    await recordAudit(tx, {
      action: "session.revoked_others",
      outcome: "success",
      targetType: "user",
      targetId: owner.userId,
      details: { revoked },
      actorUserId: owner.userId,
      actorEmail: owner.email,
      ...auditSource(source),
    });
    return revoked;
  });
}

/**
 * An admin ends every session of a person (Edit Client / Edit Employee): they must sign in again.
 * Answers how many live sessions ended.
 */
export async function revokeAllSessionsOf(
  auth: Auth,
  db: Database,
  target: { userId: string; kind: TPersonKind; id: number },
  actor: SessionActor,
): Promise<number> {
  return inAuthTransaction(auth, db, async (tx, sessions) => {
    const revoked = live(await sessions.listSessions(target.userId)).length;
    await sessions.deleteUserSessions(target.userId);
    await recordAudit(tx, {
      action: "user.sessions_revoked",
      outcome: "success",
      targetType: "user",
      targetId: target.userId,
      details: { revoked, [PEOPLE[target.kind].idParam]: target.id },
      actorUserId: actor.userId,
      actorEmail: actor.email,
      ...auditSource(actor),
    });
    return revoked;
  });
}
