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

/**
 * Mints a one-time Sigma embed URL: an HS256 JWT (header `kid` = embed client id) in `:jwt`,
 * `:embed=true`, the `:`-prefixed UI parameters, then control values.
 */
export async function mintEmbedUrl(options: TMintEmbedUrlOptions): Promise<MintedEmbedUrl> {
  const { now = () => new Date(), ...rest } = options;
  const o = ZMintEmbedUrlOptionsSchema.parse(rest);
  const iat = Math.floor(now().getTime() / 1000);
  const exp = iat + (o.lifetimeSeconds ?? DEFAULT_EMBED_URL_LIFETIME_SECONDS);
  const jti = randomUUID();

  const claims: TEmbedClaims = ZEmbedClaimsSchema.parse({
    sub: o.user.email,
    jti,
    iat,
    exp,
    account_type: o.user.accountType,
    teams: o.user.teams,
    ...(o.user.userAttributes ? { user_attributes: o.user.userAttributes } : {}),
    ...(o.user.firstName !== undefined ? { first_name: o.user.firstName } : {}),
    ...(o.user.lastName !== undefined ? { last_name: o.user.lastName } : {}),
    ...(o.evalConnectionId ? { eval_connection_id: o.evalConnectionId } : {}),
    ...(o.ver ? { ver: o.ver } : {}),
    ...(o.ver === "1.1" ? { aud: SIGMA_JWT_AUDIENCE } : {}),
  });

  const token = signerFor(o.secret, o.clientId)({ ...claims });

  const base = o.embedBaseUrl.replace(/\/+$/, "");
  const path = `${base}/workbook/${encodeURIComponent(o.workbookName)}${
    o.pageId ? `/page/${encodeURIComponent(o.pageId)}` : ""
  }`;
  const params = [`:jwt=${encodeURIComponent(token)}`, ":embed=true"];
  for (const [key, value] of Object.entries(o.ui ?? {})) {
    if (value === undefined) continue;
    params.push(`:${encodeParam(key, String(value))}`);
  }
  for (const [key, value] of Object.entries(o.controls ?? {})) {
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
}
