import {
  ZMessageSchema,
  ZWorkbookInputSchema,
  ZWorkbookListQuerySchema,
  ZWorkbookMutationResponseSchema,
  ZWorkbookSchema,
  pathId,
} from "@portal/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf } from "../audit/actor.ts";
import type { Database } from "../db/client.ts";
import { adminErrorResponses as errors } from "../lib/error-responses.ts";
import { setPageHeaders } from "../lib/paging.ts";
import { requireRole } from "../plugins/authenticate.ts";
import { addWorkbook, deleteWorkbook, editWorkbook, listWorkbooks } from "./catalogue.ts";

const idParam = (name: string) => z.object({ [name]: pathId(name) });

/**
 * The workbook catalogue in the back office, with the spec's exact paths, methods and field names (spec §7).
 * Admin only: 401 without a session or bearer token, 403 for any other role.
 */
export const workbookAdminRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  // Before the body is parsed or validated (authorization before validation): 401, then 403, then 400.
  app.addHook("onRequest", requireRole("admin"));

  app.get(
    "/api/admin/workbooks",
    {
      schema: {
        tags: ["workbooks"],
        querystring: ZWorkbookListQuerySchema,
        response: { 200: z.array(ZWorkbookSchema), ...errors },
      },
    },
    async (request, reply) => {
      const page = await listWorkbooks(db, request.query);
      setPageHeaders(request, reply, {
        total: page.total,
        limit: request.query.limit,
        offset: request.query.offset,
      });
      return page.rows;
    },
  );

  app.post(
    "/api/admin/addworkbook",
    {
      schema: {
        tags: ["workbooks"],
        body: ZWorkbookInputSchema,
        response: { 201: ZWorkbookMutationResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        message: "Workbook added successfully.",
        data: await addWorkbook(db, request.body, actorOf(request)),
      }),
  );

  const editWorkbookRoute = {
    schema: {
      tags: ["workbooks"],
      params: idParam("id"),
      body: ZWorkbookInputSchema,
      response: { 200: ZWorkbookMutationResponseSchema, ...errors },
    },
  };
  const editWorkbookHandler = async (
    request: {
      params: Record<string, unknown>;
      body: z.output<typeof ZWorkbookInputSchema>;
    } & Parameters<typeof actorOf>[0],
  ) => ({
    message: "Workbook updated successfully.",
    data: await editWorkbook(db, request.params.id as number, request.body, actorOf(request)),
  });
  app.put("/api/admin/editworkbook/:id", editWorkbookRoute, editWorkbookHandler);
  // The spec's path has no /api prefix (spec §7); it is served too, behind the same guard and role gate.
  app.put(
    "/workbooks/editworkbook/:id",
    { ...editWorkbookRoute, config: { protected: true } },
    editWorkbookHandler,
  );

  app.delete(
    "/api/admin/deleteworkbook/:id",
    { schema: { tags: ["workbooks"], params: idParam("id"), response: { 200: ZMessageSchema, ...errors } } },
    async (request) => {
      await deleteWorkbook(db, request.params.id as number, actorOf(request));
      return { message: "Workbook deleted." };
    },
  );
};
