import type { createAuthMiddleware } from "better-auth/api";
import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { passkeys, users } from "../../db/schema.ts";
import type { SecondStepFacts } from "../enrolment.ts";
import { APIError, getSessionFromCtx } from "better-auth/api";
import { auditSourceFromHeaders, type AuditSource } from "../../audit/audit.ts";
import type { ApiErrorCode } from "@portal/contracts";
import type { TotpClaim } from "../totp.ts";

/** The context Better Auth hands a hook: the matched endpoint's path, its parsed body (any encoding), … */
export type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** One hook of a concern: which endpoint paths it watches, and what it does (an answer replaces the endpoint's). */
export interface PortalHook {
  paths: (path: string) => boolean;
  run: (ctx: HookContext) => Promise<unknown>;
}

/** A concern (lock, two-step gate, policy, audit): what it does before the endpoint runs, and after. */
export interface Concern {
  before?: PortalHook[];
  after?: PortalHook[];
}

export const onPath =
  (...paths: string[]) =>
  (path: string) =>
    paths.includes(path);

/** Someone an auth request is about: the signed-in person, or the one whose second sign-in step is open. */
export interface AuthPerson {
  userId: string;
  email: string;
  role: string | null;
  twoFactorEnabled: boolean;
  /** How the session was reached (sessions.sign_in_method); null for a pending second step. */
  signInMethod: string | null;
}

/** What the hooks of one request learn before the endpoint runs and need again after it. */
interface RequestState {
  signedIn?: AuthPerson | null;
  pending?: AuthPerson | null;
  claim?: TotpClaim;
}

const states = new WeakMap<object, RequestState>();

/** This request's state (keyed by its Request, or its Headers for a server-side call). */
export function stateOf(ctx: HookContext): RequestState {
  const key = (ctx.request ?? ctx.headers) as object | undefined;
  if (!key) return {};
  let state = states.get(key);
  if (!state) {
    state = {};
    states.set(key, state);
  }
  return state;
}

export function sourceOf(ctx: HookContext): AuditSource {
  return auditSourceFromHeaders(ctx.headers ?? ctx.request?.headers);
}

/** The request's body as Better Auth parsed it (JSON, form or multipart alike). */
export function bodyOf(ctx: HookContext): Record<string, unknown> {
  const body: unknown = ctx.body;
  return body && typeof body === "object" ? (body as Record<string, unknown>) : {};
}

/** The email of a sign-in or reset body, normalised as Better Auth normalises it (lower case). */
export function emailOf(ctx: HookContext): string | undefined {
  const email = bodyOf(ctx).email;
  return typeof email === "string" ? email.toLowerCase() : undefined;
}

/** The signed-in person of this request (read once, before the endpoint changes anything). */
export async function signedInPerson(ctx: HookContext): Promise<AuthPerson | null> {
  const state = stateOf(ctx);
  if (state.signedIn !== undefined) return state.signedIn;
  const hasCookie = !!ctx.headers?.get("cookie");
  const session = hasCookie ? await getSessionFromCtx(ctx).catch(() => null) : null;
  state.signedIn = session
    ? {
        userId: session.user.id,
        email: session.user.email,
        role: (session.user as { role?: string | null }).role ?? null,
        twoFactorEnabled: (session.user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled === true,
        signInMethod: (session.session as { signInMethod?: string | null }).signInMethod ?? null,
      }
    : null;
  return state.signedIn;
}

/**
 * Whose second sign-in step is open: Better Auth's signed two-factor cookie names a verification row
 * whose value is the user id (the cookie's signature is checked here, as the plugin checks it).
 */
export async function pendingPerson(ctx: HookContext): Promise<AuthPerson | null> {
  const state = stateOf(ctx);
  if (state.pending !== undefined) return state.pending;
  state.pending = null;
  const cookie = ctx.context.createAuthCookie("two_factor");
  const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (identifier) {
    const verification = await ctx.context.internalAdapter.findVerificationValue(identifier);
    const user = verification && (await ctx.context.internalAdapter.findUserById(verification.value));
    if (user) {
      state.pending = {
        userId: user.id,
        email: user.email,
        role: (user as { role?: string | null }).role ?? null,
        twoFactorEnabled: true,
        signInMethod: null,
      };
    }
  }
  return state.pending;
}

/** What the endpoint answered: an error (with its status and code), or success with its body. */
export function outcomeOf(ctx: HookContext): {
  ok: boolean;
  status: number;
  code: string | null;
  body: Record<string, unknown>;
} {
  const returned = ctx.context.returned as unknown;
  if (returned instanceof Error) {
    const error = returned as Error & { statusCode?: number; body?: { code?: string } };
    return { ok: false, status: error.statusCode ?? 500, code: error.body?.code ?? null, body: {} };
  }
  if (returned instanceof Response) {
    return { ok: returned.ok, status: returned.status, code: null, body: {} };
  }
  const body = returned && typeof returned === "object" ? (returned as Record<string, unknown>) : {};
  return { ok: true, status: 200, code: null, body };
}

const audited = new WeakSet<object>();

/** A refusal its concern has already put in the audit trail (the plugin records every other one). */
export function alreadyAudited<E extends object>(error: E): E {
  audited.add(error);
  return error;
}

export function isAudited(error: unknown): boolean {
  return typeof error === "object" && error !== null && audited.has(error);
}

/** A refusal as Better Auth answers it, with one of the API's typed codes (`@portal/contracts` error-codes.ts). */
export function authError(
  status: ConstructorParameters<typeof APIError>[0],
  code: ApiErrorCode,
  message: string,
  headers?: Record<string, string>,
): APIError {
  return new APIError(status, { code, message }, headers);
}

/** Whether the person has at least one passkey. */
export async function hasPasskey(db: Executor, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: passkeys.id })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .limit(1);
  return !!row;
}

/** A person's second steps as the two-step policy weighs them (without a session's sign-in method). */
export async function secondStepFacts(db: Executor, userId: string): Promise<SecondStepFacts | null> {
  const [user] = await db
    .select({ role: users.role, twoFactorEnabled: users.twoFactorEnabled })
    .from(users)
    .where(eq(users.id, userId));
  return user ? { ...user, hasPasskey: await hasPasskey(db, userId) } : null;
}
