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

/** Default lifetime of a minted URL: short, because a URL carries a token (security baseline: minutes). */
export const DEFAULT_EMBED_URL_LIFETIME_SECONDS = 5 * 60;

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
  user: z.object({
    email: ZEmbedSubjectSchema,
    firstName: z.string().max(200).optional(),
    lastName: z.string().max(200).optional(),
    /** Always send it: Sigma assigns the highest account type when it is missing. */
    accountType: z.string().min(1).max(100),
    /** The complete list: Sigma replaces the user's teams with it on every embed. */
    teams: z.array(ZTeamNameSchema),
    userAttributes: ZUserAttributesSchema.optional(),
  }),
  lifetimeSeconds: z.number().int().positive().max(MAX_EMBED_SESSION_SECONDS).optional(),
  ui: ZEmbedUiParamsSchema.optional(),
  /** Workbook control values (`<ControlId>=<value>`); visible to and changeable by the viewer. */
  controls: z.record(z.string().min(1), z.string()).optional(),
  /** `"1.1"` adds `aud: "sigmacomputing"`, as Sigma requires for that version. */
  ver: z.string().optional(),
  evalConnectionId: z.string().optional(),
});
export type TMintEmbedUrlOptions = z.input<typeof ZMintEmbedUrlOptionsSchema> & {
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
  /** Clock for tests. */
  now?: () => Date;
};

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

  return ({ now = () => new Date(), user, ...rest }) => {
    const c = ZMintCallSchema.parse(rest);
    const iat = Math.floor(now().getTime() / 1000);
    const exp = iat + (o.lifetimeSeconds ?? DEFAULT_EMBED_URL_LIFETIME_SECONDS);
    const jti = randomUUID();

    const claims: TEmbedClaims = ZEmbedClaimsSchema.parse({
      sub: user.email,
      jti,
      iat,
      exp,
      account_type: user.accountType,
      teams: user.teams,
      ...(user.userAttributes ? { user_attributes: user.userAttributes } : {}),
      ...(user.firstName !== undefined ? { first_name: user.firstName } : {}),
      ...(user.lastName !== undefined ? { last_name: user.lastName } : {}),
      ...(o.evalConnectionId ? { eval_connection_id: o.evalConnectionId } : {}),
      ...(o.ver ? { ver: o.ver } : {}),
      ...(o.ver === "1.1" ? { aud: SIGMA_JWT_AUDIENCE } : {}),
    });
    // Sigma always needs the account type: without it, it assigns the highest.
    if (!claims.account_type) throw new Error("account_type is required");

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
