import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { renderCharts } from "../charts/render.ts";
import { CHART_THEMES } from "../charts/themes.ts";
import { clientIdsFromAttributes } from "../db/row-security.ts";
import type { TWorkbook } from "../workbooks/schema.ts";
import type { PageData } from "./boot.ts";
import { BEARER, type EmbedContext } from "./context.ts";
import { ZChartSizesSchema } from "./layout.ts";
import { resolveEmbedSession } from "./members.ts";

/** Sigma's code-less message once the JWT's `exp` has passed while the page is open. */
export const SESSION_EXPIRED_MESSAGE = "Session expired. Reload the page.";

const ZQueryBodySchema = z.object({
  pageId: z.string().max(64).optional(),
  variables: z.record(z.string().max(100), z.string().max(200)).default({}),
  /** The page's chart sizes as the frame lays them out: the answer carries those charts drawn at them. */
  sizes: ZChartSizesSchema.default({}),
  /** Only these elements (charts drawn again at a new size); all of the page's when absent. */
  elements: z.array(z.string().max(64)).max(64).optional(),
  theme: z.enum(CHART_THEMES).default("light"),
});

/**
 * The embed page's data: control options, element rows and the charts drawn at the page's sizes, under the
 * user's row security.
 */
export function registerQueryRoute(app: FastifyInstance, ctx: EmbedContext): void {
  const { config, db, workbooks, results } = ctx;
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
