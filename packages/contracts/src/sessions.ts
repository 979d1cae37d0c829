import { z } from "zod";
import { ZSignInMethodSchema } from "./sign-in.ts";

// ---- Sessions: where a person is signed in (profile), and ending them (profile, Edit Client/Employee) ----

/**
 * One of the signed-in person's sessions, as the profile lists it (GET /api/me/sessions). Never its token:
 * the portal reads sessions on the server and answers only these fields (DEVIATIONS D51).
 */
export const ZSessionSchema = z.object({
  id: z.string(),
  /** "Chrome 131", read from the user agent; null when it names no browser the portal knows. */
  browser: z.string().nullable(),
  /** "macOS 14.5", "Windows 10", "iOS 18.1"; null when unknown. */
  os: z.string().nullable(),
  /** desktop, mobile or tablet; null when unknown. */
  device: z.enum(["desktop", "mobile", "tablet"]).nullable(),
  ip: z.string().nullable(),
  /** ISO time (UTC) the person signed in. */
  signed_in_at: z.string(),
  /** ISO time (UTC) of the last request seen, to within SESSION_ACTIVITY_RESOLUTION_SECONDS. */
  last_active_at: z.string(),
  /** ISO time (UTC) the session ends by itself (its absolute lifetime). */
  expires_at: z.string(),
  /** The session of this request ("This device"). */
  current: z.boolean(),
  /** How the session signed in (issue 24: `SIGN_IN_METHOD_LABELS`); null for a session from before it was noted. */
  sign_in_method: ZSignInMethodSchema.nullable(),
});
export type TSession = z.infer<typeof ZSessionSchema>;

/** GET /api/me/sessions: the caller's live sessions, this device first, then the most recently active. */
export const ZSessionListResponseSchema = z.array(ZSessionSchema);
export type TSessionListResponse = z.infer<typeof ZSessionListResponseSchema>;

/** DELETE /api/me/sessions/{id}: the id of one of the caller's sessions (a session id is a UUID). */
export const ZSessionIdParamsSchema = z.object({
  id: z.uuid({ error: "id must be the id of one of your sessions." }),
});

/** The answer of every request that ends sessions: what happened, and how many ended. */
export const ZSessionsRevokedResponseSchema = z.object({
  message: z.string(),
  revoked: z.number().int().nonnegative(),
});
export type TSessionsRevokedResponse = z.infer<typeof ZSessionsRevokedResponseSchema>;

/** "Last active" is refreshed at most this often per session, so a busy session is not a write per request. */
export const SESSION_ACTIVITY_RESOLUTION_SECONDS = 60;
