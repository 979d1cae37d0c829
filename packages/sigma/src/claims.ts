import { z } from "zod";

/** Sigma's four license tiers, lowest to highest. Sigma assigns the highest when `account_type` is omitted. */
export const SIGMA_ACCOUNT_TYPES = ["View", "Act", "Analyze", "Build"] as const;
export type TSigmaAccountType = (typeof SIGMA_ACCOUNT_TYPES)[number];

/** The embed session length Sigma allows: `exp - iat` at most 30 days. */
export const MAX_EMBED_SESSION_SECONDS = 30 * 24 * 60 * 60;

/** `ver: "1.1"` requires this audience. */
export const SIGMA_JWT_AUDIENCE = "sigmacomputing";

/**
 * Sigma keys embed users by email and rejects whitespace and underscores in `sub`.
 * The rest is an ordinary email check.
 */
export const ZEmbedSubjectSchema = z
  .email("sub must be an email address")
  .max(254)
  .refine((v) => !/[\s_]/.test(v), "sub must not contain whitespace or underscores");

/** Team names as Sigma shows them; `teams` overwrites the user's memberships on every embed. */
export const ZTeamNameSchema = z.string().trim().min(1).max(200);

/** Sigma user attributes are strings; a list is sent comma-joined. */
export const ZUserAttributesSchema = z.record(z.string().min(1).max(100), z.string().max(4000));

/** Header of a Sigma embed JWT: HS256 only, `kid` names the embed client. */
export const ZEmbedJwtHeaderSchema = z.object({
  alg: z.literal("HS256"),
  kid: z.string().min(1),
  typ: z.string().optional(),
});
export type TEmbedJwtHeader = z.infer<typeof ZEmbedJwtHeaderSchema>;

/** Claims of a Sigma embed JWT (required: sub, jti, iat, exp). */
export const ZEmbedClaimsSchema = z
  .object({
    sub: ZEmbedSubjectSchema,
    jti: z.string().min(1).max(200),
    iat: z.number().int().nonnegative(),
    exp: z.number().int().positive(),
    nbf: z.number().int().optional(),
    account_type: z.string().min(1).max(100).optional(),
    teams: z.array(ZTeamNameSchema).max(500).optional(),
    user_attributes: ZUserAttributesSchema.optional(),
    first_name: z.string().max(200).optional(),
    last_name: z.string().max(200).optional(),
    eval_connection_id: z.string().optional(),
    /** Sigma accepts "1.0" (the default) and "1.1". */
    ver: z.enum(["1.0", "1.1"]).optional(),
    aud: z.union([z.string(), z.array(z.string())]).optional(),
    iss: z.string().optional(),
  })
  .refine((c) => c.exp > c.iat, { message: "exp must be after iat", path: ["exp"] })
  .refine((c) => c.exp - c.iat <= MAX_EMBED_SESSION_SECONDS, {
    message: "exp - iat must be at most 30 days",
    path: ["exp"],
  })
  .refine(
    (c) =>
      c.ver !== "1.1" ||
      c.aud === SIGMA_JWT_AUDIENCE ||
      (Array.isArray(c.aud) && c.aud.includes(SIGMA_JWT_AUDIENCE)),
    { message: `ver 1.1 requires aud "${SIGMA_JWT_AUDIENCE}"`, path: ["aud"] },
  );
export type TEmbedClaims = z.infer<typeof ZEmbedClaimsSchema>;

/** `<Name>-<workbookUrlId>`: the slugified name, a hyphen, then 22–24 letters and digits. */
export const WORKBOOK_NAME_PATTERN = /^(.+)-([A-Za-z0-9]{22,24})$/;
export const ZWorkbookNameSchema = z
  .string()
  .max(300)
  .regex(WORKBOOK_NAME_PATTERN, "workbook name must be <Name>-<workbookUrlId>");

/** Splits `<Name>-<workbookUrlId>`; the sidebar label is the part before the last hyphen. */
export function parseWorkbookName(
  workbookName: string,
): { label: string; slug: string; urlId: string } | null {
  const m = WORKBOOK_NAME_PATTERN.exec(workbookName);
  if (!m?.[1] || !m[2]) return null;
  return { slug: m[1], label: m[1].replace(/-/g, " "), urlId: m[2] };
}
