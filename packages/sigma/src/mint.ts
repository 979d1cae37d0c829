import { randomUUID } from "node:crypto";
import { createSigner } from "fast-jwt";
import { z } from "zod";
import {
  MAX_EMBED_SESSION_SECONDS,
  SIGMA_JWT_AUDIENCE,
  ZEmbedClaimsSchema,
  ZTeamNameSchema,
  ZUserAttributesSchema,
  ZWorkbookNameSchema,
  ZEmbedSubjectSchema,
  type TEmbedClaims,
} from "./claims.ts";

/**
 * Default embed session: `exp - iat` is how long Sigma keeps the embed open (then it shows its code-less
 * "Session expired" page), so it must be long enough to read in. The URL itself still works once (`jti`).
 */
export const DEFAULT_EMBED_SESSION_SECONDS = 60 * 60;

/** UI parameters Sigma accepts on JWT-signed URLs (each sent `:`-prefixed). */
export const ZEmbedUiParamsSchema = z
  .object({
    theme: z.string().min(1).max(100),
    menu_position: z.enum(["top", "bottom", "none"]),
    hide_menu: z.boolean(),
    hide_folder_navigation: z.boolean(),
    hide_bookmarks: z.boolean(),
    hide_explore_toggle: z.boolean(),
    hide_tooltip: z.boolean(),
    lng: z.string().min(2).max(20),
    lng_variant: z.string().min(1).max(40),
    responsive_height: z.boolean(),
  })
  .partial();
export type TEmbedUiParams = z.infer<typeof ZEmbedUiParamsSchema>;

export const ZMintEmbedUrlOptionsSchema = z.object({
  /** `https://app.sigmacomputing.com/<org-slug>`, or `http://127.0.0.1:3100/local` for the built-in server. */
  embedBaseUrl: z.url(),
  /** `<Name>-<workbookUrlId>` exactly as the catalogue stores it. */
  workbookName: ZWorkbookNameSchema,
  pageId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional(),
  /** The embed client id (JWT header `kid`) and its secret. */
  clientId: z.string().min(1),
  secret: z.string().min(1),
  user: z.union([
    z.object({
      /** An embed user: Sigma creates and updates them from the token's claims. */
      kind: z.literal("embed").optional(),
      email: ZEmbedSubjectSchema,
      firstName: z.string().max(200).optional(),
      lastName: z.string().max(200).optional(),
      /** Always send it: Sigma assigns the highest account type when it is missing. */
      accountType: z.string().min(1).max(100),
      /** The complete list: Sigma replaces the user's teams with it on every embed. */
      teams: z.array(ZTeamNameSchema),
      userAttributes: ZUserAttributesSchema.optional(),
    }),
    z.object({
      /**
       * Someone who also signs in to Sigma directly (`userKind` other than `embed`): the token carries only
       * `sub`, `jti`, `iat` and `exp`, never user claims (Sigma manages their account type, teams, attributes).
       */
      kind: z.literal("internal"),
      email: ZEmbedSubjectSchema,
    }),
  ]),
  lifetimeSeconds: z.number().int().positive().max(MAX_EMBED_SESSION_SECONDS).optional(),
  ui: ZEmbedUiParamsSchema.optional(),
  /** Workbook control values (`<ControlId>=<value>`); visible to and changeable by the viewer. */
  controls: z.record(z.string().min(1), z.string()).optional(),
  /** `"1.1"` adds `aud: "sigmacomputing"`, as Sigma requires for that version. */
  ver: z.string().optional(),
  evalConnectionId: z.string().optional(),
});
/** An embed user's claims (the portal's clients and employees). */
export type TEmbedUserClaims = Extract<
  z.input<typeof ZMintEmbedUrlOptionsSchema>["user"],
  { accountType: string }
>;
export type TMintEmbedUrlOptions = z.input<typeof ZMintEmbedUrlOptionsSchema> & {
  /** The session ends no later than this: `exp` is capped at it. */
  notAfter?: Date;
  /** Clock for tests. */
  now?: () => Date;
};

export interface MintedEmbedUrl {
  url: string;
  jti: string;
  issuedAt: Date;
  expiresAt: Date;
  claims: TEmbedClaims;
}

/**
 * One HS256 signer per (secret, kid): fast-jwt signs synchronously with node:crypto, which costs a
 * tenth of a WebCrypto round trip on the embed hot path. A portal has one or two secrets.
 */
const signers = new Map<string, (claims: Record<string, unknown>) => string>();
function signerFor(secret: string, kid: string) {
  const id = `${kid}\u0000${secret}`;
  let signer = signers.get(id);
  if (!signer) {
    if (signers.size >= 16) signers.clear();
    // fast-jwt keeps the claims' own iat and exp; the header is {alg, typ: "JWT", kid}.
    signer = createSigner({ key: secret, algorithm: "HS256", kid });
    signers.set(id, signer);
  }
  return signer;
}

function encodeParam(name: string, value: string): string {
  return `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
}

/** What stays the same for every URL a portal mints: where, with which key, for how long, how it looks. */
const ZMinterOptionsSchema = ZMintEmbedUrlOptionsSchema.pick({
  embedBaseUrl: true,
  clientId: true,
  secret: true,
  lifetimeSeconds: true,
  ui: true,
  ver: true,
  evalConnectionId: true,
});
export type TEmbedMinterOptions = z.input<typeof ZMinterOptionsSchema>;
/** What changes per URL. The user's fields are validated as the token's claims. */
const ZMintCallSchema = ZMintEmbedUrlOptionsSchema.pick({ workbookName: true, pageId: true, controls: true });
export type TEmbedMintCall = z.input<typeof ZMintCallSchema> & {
  user: TMintEmbedUrlOptions["user"];
  /** The session ends no later than this (the portal session's own end): `exp` is capped at it. */
  notAfter?: Date;
  /** Clock for tests. */
  now?: () => Date;
};

/** The user claims of a token: none for an internal user, the complete set for an embed user. */
function userClaims(user: TMintEmbedUrlOptions["user"]): Record<string, unknown> {
  if (user.kind === "internal") return {};
  return {
    account_type: user.accountType,
    teams: user.teams,
    ...(user.userAttributes ? { user_attributes: user.userAttributes } : {}),
    ...(user.firstName !== undefined ? { first_name: user.firstName } : {}),
    ...(user.lastName !== undefined ? { last_name: user.lastName } : {}),
  };
}

/**
 * A minter for one Sigma org (or the built-in analytics server): the fixed options are validated once,
 * each call validates the workbook and the claims it signs. Mints a one-time embed URL: an HS256 JWT
 * (header `kid` = embed client id) in `:jwt`, `:embed=true`, the `:`-prefixed UI parameters, then
 * control values.
 */
export function createEmbedMinter(options: TEmbedMinterOptions): (call: TEmbedMintCall) => MintedEmbedUrl {
  const o = ZMinterOptionsSchema.parse(options);
  const sign = signerFor(o.secret, o.clientId);
  const base = o.embedBaseUrl.replace(/\/+$/, "");
  const uiParams: string[] = [];
  for (const [key, value] of Object.entries(o.ui ?? {})) {
    if (value === undefined) continue;
    uiParams.push(`:${encodeParam(key, String(value))}`);
  }

  return ({ now = () => new Date(), user, notAfter, ...rest }) => {
    const c = ZMintCallSchema.parse(rest);
    const u = ZMintEmbedUrlOptionsSchema.shape.user.parse(user);
    const iat = Math.floor(now().getTime() / 1000);
    let exp = iat + (o.lifetimeSeconds ?? DEFAULT_EMBED_SESSION_SECONDS);
    if (notAfter) exp = Math.max(iat + 1, Math.min(exp, Math.floor(notAfter.getTime() / 1000)));
    const jti = randomUUID();

    const claims: TEmbedClaims = ZEmbedClaimsSchema.parse({
      sub: u.email,
      jti,
      iat,
      exp,
      ...userClaims(u),
      ...(o.evalConnectionId ? { eval_connection_id: o.evalConnectionId } : {}),
      ...(o.ver ? { ver: o.ver } : {}),
      ...(o.ver === "1.1" ? { aud: SIGMA_JWT_AUDIENCE } : {}),
    });
    // Sigma always needs an embed user's account type: without it, it assigns the highest.
    if (u.kind !== "internal" && !claims.account_type) throw new Error("account_type is required");

    const token = sign({ ...claims });
    const path = `${base}/workbook/${encodeURIComponent(c.workbookName)}${
      c.pageId ? `/page/${encodeURIComponent(c.pageId)}` : ""
    }`;
    const params = [`:jwt=${encodeURIComponent(token)}`, ":embed=true", ...uiParams];
    for (const [key, value] of Object.entries(c.controls ?? {})) {
      if (key.startsWith(":")) throw new Error(`control id must not start with ":" (${key})`);
      params.push(encodeParam(key, value));
    }
    return {
      url: `${path}?${params.join("&")}`,
      jti,
      issuedAt: new Date(iat * 1000),
      expiresAt: new Date(exp * 1000),
      claims,
    };
  };
}

/** Mints one URL (tests and scripts); the portal keeps a minter from `createEmbedMinter`. */
export async function mintEmbedUrl(options: TMintEmbedUrlOptions): Promise<MintedEmbedUrl> {
  const { embedBaseUrl, clientId, secret, lifetimeSeconds, ui, ver, evalConnectionId, ...call } = options;
  return createEmbedMinter({ embedBaseUrl, clientId, secret, lifetimeSeconds, ui, ver, evalConnectionId })(
    call,
  );
}
