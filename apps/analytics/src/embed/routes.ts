import { randomBytes } from "node:crypto";
import type { OutgoingHttpHeaders } from "node:http";
import { constants as zlibConstants, createBrotliCompress, createGzip } from "node:zlib";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { renderCharts } from "../charts/render.ts";
import { CHART_THEMES } from "../charts/themes.ts";
import type { AnalyticsConfig } from "../config.ts";
import type { Database } from "../db/database.ts";
import { clientIdsFromAttributes } from "../db/row-security.ts";
import { acceptsEncoding } from "../encoding.ts";
import { readFrontEndAssets } from "../frontend.ts";
import { PageResults } from "../workbooks/results.ts";
import { publicWorkbook, type TWorkbook } from "../workbooks/schema.ts";
import type { EmbedBoot, PageData } from "./boot.ts";
import { LAYOUT_GRACE_MS, LayoutReports, ZChartSizesSchema, within } from "./layout.ts";
import { resolveEmbedSession, type Member } from "./members.ts";
import { openEmbed } from "./open.ts";
import { embedCsp, renderEmbedHead, renderEmbedTail, renderErrorPage, renderNoticePage } from "./page.ts";
import { readEmbedQuery } from "./url.ts";
import { EmbedError, EmbedNotice, pruneUsedJtis, verifyEmbedToken } from "./verify.ts";
import { ensurePortalClients, type PortalClient } from "../demo/portal-clients.ts";
import type { TSigmaErrorCode } from "../error-codes.ts";

interface EmbedDeps {
  config: AnalyticsConfig;
  db: Database;
  workbooks: Map<string, TWorkbook>;
}

/**
 * `:theme` names a workbook theme, case-sensitively: Sigma's `Light`, `Dark` and `Surface`. Any other name
 * would be one of the organisation's custom themes, which this server has none of: the default look.
 */
export function themeOf(raw: string | undefined): EmbedBoot["theme"] {
  return raw === "Dark" ? "dark" : raw === "Surface" ? "surface" : "light";
}

/** Sigma's code-less message once the JWT's `exp` has passed while the page is open. */
export const SESSION_EXPIRED_MESSAGE = "Session expired. Reload the page.";

/** The portal's clients an embed opens for: its own client (named by the member) and those it may see. */
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

const ZQueryBodySchema = z.object({
  pageId: z.string().max(64).optional(),
  variables: z.record(z.string().max(100), z.string().max(200)).default({}),
  /** The page's chart sizes as the frame lays them out: the answer carries those charts drawn at them. */
  sizes: ZChartSizesSchema.default({}),
  /** Only these elements (charts drawn again at a new size); all of the page's when absent. */
  elements: z.array(z.string().max(64)).max(64).optional(),
  theme: z.enum(CHART_THEMES).default("light"),
});

const ZLayoutBodySchema = z.object({ sizes: ZChartSizesSchema });

const BEARER = /^Bearer ([A-Za-z0-9_-]{20,100})$/;

/**
 * Whether the request is a browser opening the page in a frame or tab, which runs the page's layout script;
 * other clients get the page without waiting for chart sizes (the page asks for its charts itself then).
 */
function runsPageScripts(request: FastifyRequest): boolean {
  return ["iframe", "frame", "document"].includes(String(request.headers["sec-fetch-dest"] ?? ""));
}

/** The page's body stream, compressed as the browser accepts, written straight to the socket. */
function pageStream(request: FastifyRequest, reply: FastifyReply) {
  const accept = request.headers["accept-encoding"];
  const encoding = acceptsEncoding(accept, "br")
    ? "br"
    : acceptsEncoding(accept, "gzip")
      ? "gzip"
      : undefined;
  reply.header("vary", "accept-encoding");
  if (encoding) reply.header("content-encoding", encoding);
  reply.hijack();
  reply.raw.writeHead(200, reply.getHeaders() as OutgoingHttpHeaders);
  if (!encoding) {
    return { write: (chunk: string) => reply.raw.write(chunk), end: (chunk: string) => reply.raw.end(chunk) };
  }
  const zip =
    encoding === "br"
      ? createBrotliCompress({ params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })
      : createGzip({ level: 6 });
  zip.pipe(reply.raw);
  return {
    // Flushed: the head must reach the browser now, not when the compressor's buffer fills.
    write: (chunk: string) => {
      zip.write(chunk);
      zip.flush();
    },
    end: (chunk: string) => zip.end(chunk),
  };
}

/** What the embed routes share: their dependencies, the pending layout reports and the kept results. */
interface EmbedContext extends EmbedDeps {
  layouts: LayoutReports;
  layoutUrl: string;
  results: PageResults;
  /** Forgets old jtis, at most once an hour. */
  prune: () => Promise<void>;
  log: FastifyInstance["log"];
}

export function registerEmbedRoutes(app: FastifyInstance, deps: EmbedDeps): void {
  let lastPrune = 0;
  const ctx: EmbedContext = {
    ...deps,
    layouts: new LayoutReports(),
    layoutUrl: `/${deps.config.orgSlug}/api/embed/layout`,
    results: new PageResults(
      deps.db,
      deps.config.readerRole,
      (error, elementId) => app.log.error({ err: error, elementId }, "element query failed"),
      { ttlMs: deps.config.resultCacheSeconds * 1000 },
    ),
    prune: async () => {
      if (Date.now() - lastPrune < 3_600_000) return;
      lastPrune = Date.now();
      await pruneUsedJtis(deps.db);
    },
    log: app.log,
  };
  const handler = (request: FastifyRequest<{ Params: TPageParams }>, reply: FastifyReply) =>
    openPage(ctx, request, reply);
  app.get("/:org/workbook/:workbookName", handler);
  app.get("/:org/workbook/:workbookName/page/:pageId", handler);
  registerDataRoutes(app, ctx);
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

/** Streams the page: its head at once, the boot data (with the first page's rows and charts) when ready. */
async function streamPage(
  ctx: EmbedContext,
  request: FastifyRequest,
  reply: FastifyReply,
  wb: TWorkbook,
  boot: EmbedBoot,
  member: Member,
  accent: string | undefined,
) {
  const { layouts, layoutUrl, results } = ctx;
  const { sessionToken } = boot;
  // The page reports its chart sizes from the skeleton while the queries run (page.ts's layout script).
  const sizes = runsPageScripts(request) ? layouts.expect(sessionToken) : undefined;
  const head = renderEmbedHead(wb, boot, await readFrontEndAssets(), layoutUrl, accent);
  // Written straight to the socket (not through a stream Fastify pipes later), so the browser has the
  // head, and starts on the script, before the queries below occupy this thread (PGlite runs in-process).
  const out = pageStream(request, reply);
  out.write(head);
  const page = wb.pages.find((p) => p.id === boot.pageId) as TWorkbook["pages"][number];
  setImmediate(() => {
    results
      .get({
        clientIds: clientIdsFromAttributes(member.user_attributes),
        workbook: wb,
        pageId: boot.pageId,
        variables: boot.initialVariables,
      })
      .then(
        async (data) => {
          // Charts the page has not measured in time are drawn when it asks for them.
          const measured = sizes ? await within(sizes, LAYOUT_GRACE_MS) : undefined;
          const initial: PageData = {
            ...data,
            charts: measured ? renderCharts(page.elements, data, boot.theme, measured) : {},
          };
          boot.initialData = initial;
        },
        (error: unknown) => {
          // The page fetches its data itself when this fails.
          request.log.error({ err: error }, "initial data failed");
        },
      )
      // Nor may the charts keep the page from ending: the page asks for them itself then.
      .catch((error: unknown) => request.log.error({ err: error }, "initial charts failed"))
      .finally(() => {
        layouts.forget(sessionToken);
        out.end(renderEmbedTail(boot));
      });
  });
  return reply;
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

/** The page's own requests: its chart sizes while the first data is computed, and its later data. */
function registerDataRoutes(app: FastifyInstance, ctx: EmbedContext): void {
  const { config, db, workbooks, layouts, results } = ctx;
  // The chart sizes of a page whose first data is being computed (page.ts's layout script). The session
  // token names the waiting page; a report nobody waits for changes nothing.
  app.post<{ Params: { org: string } }>("/:org/api/embed/layout", async (request, reply) => {
    reply.header("cache-control", "no-store");
    const token = BEARER.exec(request.headers.authorization ?? "")?.[1];
    const body = ZLayoutBodySchema.safeParse(request.body ?? {});
    if (!token || !body.success) return reply.code(400).send({ code: "EINVAL", message: "Invalid request." });
    layouts.deliver(token, body.data.sizes);
    return reply.code(204).send();
  });

  // The embed page's data: control options, element rows and the charts drawn at the page's sizes, under the
  // user's row security.
  app.post<{ Params: { org: string } }>("/:org/api/embed/query", async (request, reply) => {
    reply.header("cache-control", "no-store");
    const token = BEARER.exec(request.headers.authorization ?? "")?.[1];
    const session = token ? await resolveEmbedSession(db, token) : "ended";
    // The session is over (the JWT's exp passed, or the member was deactivated): Sigma's code-less message.
    if (session === "ended") return reply.code(401).send({ message: SESSION_EXPIRED_MESSAGE });
    if (session === "gone") {
      return reply.code(404).send({ code: "ESTALE", message: "This workbook has been removed." });
    }
    if (session === "denied") {
      return reply.code(403).send({ code: "EACCES", message: "This workbook is no longer shared with you." });
    }
    if (request.params.org !== config.orgSlug) {
      return reply.code(404).send({ code: "ENOENT", message: "Workbook not found." });
    }
    const body = ZQueryBodySchema.safeParse(request.body ?? {});
    if (!body.success) return reply.code(400).send({ code: "EINVAL", message: "Invalid request." });
    const definition = workbooks.get(session.urlId);
    if (!definition) return reply.code(404).send({ code: "ENOENT", message: "Workbook not found." });
    const clientIds = clientIdsFromAttributes(session.member.user_attributes);
    const { pageId, variables, sizes, elements, theme } = body.data;
    const result = await results.get({
      clientIds,
      workbook: definition,
      pageId,
      variables,
      only: elements ? new Set(elements) : undefined,
    });
    const page =
      definition.pages.find((p) => p.id === pageId) ?? (definition.pages[0] as TWorkbook["pages"][number]);
    const answer: PageData = { ...result, charts: renderCharts(page.elements, result, theme, sizes) };
    return reply.send(answer);
  });
}
