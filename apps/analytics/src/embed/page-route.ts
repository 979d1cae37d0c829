import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AnalyticsConfig } from "../config.ts";
import { clientIdsFromAttributes } from "../db/row-security.ts";
import { ensurePortalClients, type PortalClient } from "../demo/portal-clients.ts";
import type { TSigmaErrorCode } from "../error-codes.ts";
import { publicWorkbook, type TWorkbook } from "../workbooks/schema.ts";
import type { EmbedBoot } from "./boot.ts";
import type { EmbedContext } from "./context.ts";
import type { Member } from "./members.ts";
import { openEmbed } from "./open.ts";
import { embedCsp, renderErrorPage, renderNoticePage } from "./page.ts";
import { streamPage } from "./page-stream.ts";
import { readEmbedQuery } from "./url.ts";
import { EmbedError, EmbedNotice, verifyEmbedToken } from "./verify.ts";

/**
 * `:theme` names a workbook theme, case-sensitively: Sigma's `Light`, `Dark` and `Surface`. Any other name
 * would be one of the organisation's custom themes, which this server has none of: the default look.
 */
export function themeOf(raw: string | undefined): EmbedBoot["theme"] {
  return raw === "Dark" ? "dark" : raw === "Surface" ? "surface" : "light";
}

/**
 * The portal's clients an embed opens for: its own client (named by the member) and those it may see. Only
 * `client_id` is a client's own embed; `client_ids` (an employee's clients, a delegate's one client, a
 * household's combined view) names nobody, so the viewer's name never lands on a client (decision 020).
 */
function portalClientsOf(member: Member): PortalClient[] {
  const own = member.user_attributes.client_id?.trim();
  return [
    ...(own && !own.includes(",")
      ? [
          {
            clientId: own,
            firstName: member.first_name || undefined,
            lastName: member.last_name || undefined,
            email: member.email,
          },
        ]
      : []),
    ...clientIdsFromAttributes(member.user_attributes)
      .filter((id) => id !== own)
      .map((clientId) => ({ clientId })),
  ];
}

/**
 * The host's accent colour (`:accent_color=#rrggbb`, sent by the portal from its firm branding). A UI
 * parameter like `:theme`: unsigned and only cosmetic, so anything but a hex colour is ignored.
 */
export function accentOf(raw: unknown): string | undefined {
  return typeof raw === "string" && /^#[0-9a-fA-F]{6}$/.test(raw) ? raw.toLowerCase() : undefined;
}

function securityHeaders(reply: FastifyReply, config: AnalyticsConfig, nonce?: string) {
  reply
    .header("content-security-policy", embedCsp(config.allowedParentOrigins, nonce))
    .header("cache-control", "no-store")
    .header("referrer-policy", "no-referrer")
    .header("x-content-type-options", "nosniff")
    .header("cross-origin-opener-policy", "same-origin")
    .type("text/html; charset=utf-8");
}

type TPageParams = { org: string; workbookName: string; pageId?: string };

/** A refusal: Sigma's coded page (and `workbook:error`), or its code-less message (and no event). */
function refuse(
  ctx: EmbedContext,
  reply: FastifyReply,
  request: FastifyRequest,
  error: EmbedError | EmbedNotice,
  theme: string,
) {
  const { config } = ctx;
  const nonce = randomBytes(16).toString("base64");
  securityHeaders(reply, config, nonce);
  if (error instanceof EmbedNotice) {
    request.log.info({ detail: error.detail }, "embed refused");
    return reply.code(403).send(renderNoticePage(error.message, theme, nonce));
  }
  request.log.info({ code: error.code, detail: error.detail }, "embed refused");
  const status: Partial<Record<TSigmaErrorCode, number>> = { EINVAL: 401, EACCES: 403, ENOENT: 404 };
  return reply
    .code(status[error.code] ?? 403)
    .send(renderErrorPage(error.code, error.message, config.allowedParentOrigins, theme, nonce));
}

/** The embed page: verified, decided, then streamed; or Sigma's refusal. */
async function openPage(
  ctx: EmbedContext,
  request: FastifyRequest<{ Params: TPageParams }>,
  reply: FastifyReply,
) {
  const { config, db } = ctx;
  // From the raw URL: control values keep their encoding (`,` between values, `%2C` inside one).
  const query = readEmbedQuery(request.url);
  const theme = themeOf(query.ui.get(":theme"));
  try {
    if (query.invalid.length > 0) {
      throw new EmbedError(
        "EINVAL",
        "This embed link has a parameter that does not exist.",
        `unknown parameters ${query.invalid.join(" ")}`,
      );
    }
    const { claims, kid } = await verifyEmbedToken(query.ui.get(":jwt"), config.embedClients);
    const { pageId } = request.params;
    const {
      member,
      catalogued,
      definition: wb,
      sessionToken,
    } = await openEmbed(ctx, {
      claims,
      kid,
      org: request.params.org,
      workbookName: request.params.workbookName,
      pageId,
    });
    // The portal is the system of record for people: a client's own member names them; every client id
    // the member may see has its own portfolio (demo/portal-clients.ts).
    await ensurePortalClients(db, portalClientsOf(member));
    await ctx.prune();
    const controlIds = new Set(wb.controls.map((c) => c.id));
    const initialVariables = Object.fromEntries([...query.controls].filter(([id]) => controlIds.has(id)));
    const uiParams = [...query.ui]
      .filter(([key]) => key !== ":jwt")
      .map(([key, value]) => `${key}=${encodeURIComponent(value)}`);
    const path = `/${config.orgSlug}/workbook/${encodeURIComponent(request.params.workbookName)}${pageId ? `/page/${encodeURIComponent(pageId)}` : ""}`;
    const boot: EmbedBoot = {
      sessionToken,
      queryUrl: `/${config.orgSlug}/api/embed/query`,
      workbook: publicWorkbook(wb),
      pageId: pageId ?? (wb.pages[0] as TWorkbook["pages"][number]).id,
      theme,
      responsiveHeight: query.ui.get(":responsive_height") === "true",
      hideMenu: query.ui.get(":hide_menu") === "true" || query.ui.get(":menu_position") === "none",
      allowedOrigins: config.allowedParentOrigins,
      initialVariables,
      user: {
        name: `${member.first_name} ${member.last_name}`.trim() || member.email,
        email: member.email,
      },
      cleanUrl: `${path}${uiParams.length ? `?${uiParams.join("&")}` : ""}`,
    };
    securityHeaders(reply, config);
    request.log.info({ member: member.member_id, workbook: catalogued.url_id }, "embed opened");
    return await streamPage(ctx, request, reply, wb, boot, member, accentOf(query.ui.get(":accent_color")));
  } catch (error) {
    if (error instanceof EmbedError || error instanceof EmbedNotice)
      return refuse(ctx, reply, request, error, theme);
    throw error;
  }
}

/** The page a signed embed URL opens, at the workbook's first page or at the page it names. */
export function registerPageRoutes(app: FastifyInstance, ctx: EmbedContext): void {
  const handler = (request: FastifyRequest<{ Params: TPageParams }>, reply: FastifyReply) =>
    openPage(ctx, request, reply);
  app.get("/:org/workbook/:workbookName", handler);
  app.get("/:org/workbook/:workbookName/page/:pageId", handler);
}
