import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { BEARER, type EmbedContext } from "./context.ts";
import { ZChartSizesSchema } from "./layout.ts";

const ZLayoutBodySchema = z.object({ sizes: ZChartSizesSchema });

/**
 * The chart sizes of a page whose first data is being computed (page.ts's layout script). The session
 * token names the waiting page; a report nobody waits for changes nothing.
 */
export function registerLayoutRoute(app: FastifyInstance, ctx: EmbedContext): void {
  const { layouts } = ctx;
  app.post<{ Params: { org: string } }>("/:org/api/embed/layout", async (request, reply) => {
    reply.header("cache-control", "no-store");
    const token = BEARER.exec(request.headers.authorization ?? "")?.[1];
    const body = ZLayoutBodySchema.safeParse(request.body ?? {});
    if (!token || !body.success) return reply.code(400).send({ code: "EINVAL", message: "Invalid request." });
    layouts.deliver(token, body.data.sizes);
    return reply.code(204).send();
  });
}
