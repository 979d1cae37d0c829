import { createHash, randomBytes, randomUUID } from "node:crypto";
import { DEFAULT_BRANDING, NOT_ME_PATH } from "@portal/contracts";
import { and, eq, like, lt, sql } from "drizzle-orm";
import { recordAudit } from "../audit/audit.ts";
import type { AuthDependencies } from "../auth/auth-dependencies.ts";
import {
  outcomeOf,
  signedInPerson,
  sourceOf,
  stateOf,
  type Concern,
  type HookContext,
} from "../auth/hooks/context.ts";
import type { Transaction } from "../db/client.ts";
import { rows } from "../db/rows.ts";
import { knownDevices, verifications } from "../db/schema.ts";
import { newDeviceMail } from "../mail/templates.ts";
import { describeUserAgent } from "../sessions/user-agent.ts";

/** The browser's own id (one per browser, whoever signs in on it), signed with the auth secret. */
export const DEVICE_COOKIE = "portal_device";
/** The longest a browser keeps a cookie (400 days); each sign-in sets it again. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 400 * 24 * 60 * 60;
/** How long "This wasn't me" works. */
export const NOT_ME_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

const DEVICE_ID = /^[A-Za-z0-9_-]{22}$/;
const SECOND_STEPS = ["/two-factor/verify-totp", "/two-factor/verify-backup-code", "/two-factor/verify-otp"];

/** The endpoints that end a sign-in with a session: the first step, the second, a passkey, a provider's callback. */
export function completesSignIn(path: string): boolean {
  return (
    path.startsWith("/sign-in/") ||
    SECOND_STEPS.includes(path) ||
    path === "/passkey/verify-authentication" ||
    path.startsWith("/callback/") ||
    path.startsWith("/oauth2/callback/")
  );
}

/** What the database keeps of a "This wasn't me" token: a verification row named by the token's SHA-256. */
export function notMeIdentifier(token: string): string {
  return `not-me:${createHash("sha256").update(token, "utf8").digest("hex")}`;
}

/** The verification row's value: whose sign-in, and from which browser. */
export interface NotMeLink {
  userId: string;
  deviceId: string;
}

/** "Chrome 131 on Windows 10", as the profile's session list names a browser. */
export function deviceName(userAgent: string | null | undefined): string {
  const { browser, os } = describeUserAgent(userAgent);
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? "Unknown browser";
}

type NewSession = NonNullable<HookContext["context"]["newSession"]>;

/**
 * The answer made a session: a success, or a provider callback's redirect; not the password step of someone
 * whose code comes next (Better Auth then drops the session it made), nor a sign-in a concern refused after.
 */
function signedIn(ctx: HookContext): NewSession | null {
  const made = ctx.context.newSession;
  if (!made) return null;
  const { ok, status, body } = outcomeOf(ctx);
  if (!(ok || (status >= 300 && status < 400)) || body.twoFactorRedirect === true) return null;
  // A code that confirms a signed-in person's enrolment makes a new session too: not a sign-in.
  if (SECOND_STEPS.includes(ctx.path) && stateOf(ctx).signedIn) return null;
  return made;
}

/**
 * Adds the browser to the person's known devices, or notes it was seen. Answers a "This wasn't me" token when
 * the person must be told: the browser is new to the account and the account already had one (an account's
 * first browser is where it was just created or accepted). One statement reads the devices before it adds
 * one, so two sign-ins at once from one new browser add it once and tell the person once.
 */
async function noteDevice(tx: Transaction, made: NewSession, deviceId: string): Promise<string | null> {
  const userId = made.user.id;
  const userAgent = made.session.userAgent ?? null;
  const [noted] = rows<{ prior: number; added: number }>(
    await tx.execute(sql`
      with prior as (select count(*)::int as n from ${knownDevices} where ${knownDevices.userId} = ${userId}),
      added as (
        insert into ${knownDevices} (user_id, device_id, user_agent) values (${userId}, ${deviceId}, ${userAgent})
        on conflict do nothing returning 1
      )
      select (select n from prior) as prior, (select count(*)::int from added) as added`),
  );
  if (!noted?.added) {
    await tx
      .update(knownDevices)
      .set({ lastSeenAt: sql`now()`, userAgent })
      .where(and(eq(knownDevices.userId, userId), eq(knownDevices.deviceId, deviceId)));
    return null;
  }
  if (!noted.prior) return null;
  // Links past their 7 days go when a new one is made (nothing else reads them).
  await tx
    .delete(verifications)
    .where(and(like(verifications.identifier, "not-me:%"), lt(verifications.expiresAt, sql`now()`)));
  const token = randomBytes(32).toString("base64url");
  await tx.insert(verifications).values({
    id: randomUUID(),
    identifier: notMeIdentifier(token),
    value: JSON.stringify({ userId, deviceId } satisfies NotMeLink),
    expiresAt: new Date(Date.now() + NOT_ME_LIFETIME_MS),
  });
  return token;
}

/**
 * The new-device alert (issue 24, decision 021). Every completed sign-in carries the browser's id in a signed,
 * long-lived cookie (`portal_device`; a missing, forged or altered one makes a new id); a browser the account
 * has not used before is added to `known_devices` and the person is mailed (time, browser and system, address,
 * "This wasn't me"), after the answer. The first browser of an account tells nobody (DEVIATIONS D59). Nothing
 * here can fail a sign-in: a failure is logged.
 */
export function newDeviceConcern(deps: AuthDependencies): Concern {
  const { config, db, mailer } = deps;
  const secure = config.publicUrl.startsWith("https:");
  const prefix = secure ? ("host" as const) : undefined;

  /** The browser's id from its cookie, or a new one; the cookie is set again either way (400 days more). */
  async function browserId(ctx: HookContext): Promise<string> {
    const presented = await ctx.getSignedCookie(DEVICE_COOKIE, ctx.context.secret, prefix);
    const deviceId =
      typeof presented === "string" && DEVICE_ID.test(presented)
        ? presented
        : randomBytes(16).toString("base64url");
    await ctx.setSignedCookie(DEVICE_COOKIE, deviceId, ctx.context.secret, {
      httpOnly: true,
      secure,
      sameSite: "lax",
      path: "/",
      maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
      ...(prefix && { prefix }),
    });
    return deviceId;
  }

  async function alert(ctx: HookContext, made: NewSession) {
    const deviceId = await browserId(ctx);
    const { browser, os } = describeUserAgent(made.session.userAgent);
    const ip = made.session.ipAddress ?? sourceOf(ctx).ip ?? null;
    const token = await db.transaction(async (tx) => {
      const issued = await noteDevice(tx, made, deviceId);
      if (issued) {
        await recordAudit(tx, {
          action: "auth.new_device",
          outcome: "success",
          actorUserId: made.user.id,
          actorEmail: made.user.email,
          targetType: "user",
          targetId: made.user.id,
          details: { browser, os, ip },
          ...sourceOf(ctx),
        });
      }
      return issued;
    });
    if (!token) return;
    const send = async () => {
      const firm = deps.mailFirm ? await deps.mailFirm() : DEFAULT_BRANDING;
      await mailer.send({
        to: made.user.email,
        ...newDeviceMail({
          name: made.user.name,
          signedInAt: new Date(made.session.createdAt),
          device: deviceName(made.session.userAgent),
          ip,
          url: `${config.publicUrl}${NOT_ME_PATH}?token=${token}`,
          firm,
        }),
      });
    };
    // After the answer, like Better Auth's own mail; a failed send is logged (advanced.backgroundTasks).
    await ctx.context.runInBackgroundOrAwait(send());
  }

  return {
    before: [
      {
        // Whether a second step's request was already signed in (an enrolment's confirmation), read before
        // the endpoint replaces that session.
        paths: (path) => SECOND_STEPS.includes(path),
        run: async (ctx) => {
          await signedInPerson(ctx);
        },
      },
    ],
    after: [
      {
        paths: completesSignIn,
        run: async (ctx) => {
          const made = signedIn(ctx);
          if (!made) return;
          try {
            await alert(ctx, made);
          } catch (error) {
            ctx.context.logger.error("The new-device check failed; the sign-in goes on.", error);
          }
        },
      },
    ],
  };
}
