import {
  ZClientHouseholdResponseSchema,
  ZHouseholdInputSchema,
  ZHouseholdResponseSchema,
  ZHouseholdsResponseSchema,
  ZMessageSchema,
  pathId,
} from "@portal/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf } from "../audit/actor.ts";
import type { Database } from "../db/client.ts";
import { adminErrorResponses as errors } from "../lib/error-responses.ts";
import { requireRole } from "../plugins/authenticate.ts";
import {
  createHousehold,
  deleteHousehold,
  householdOfClient,
  listHouseholds,
  replaceHousehold,
} from "./households.ts";

const tags = ["households"];
const householdParams = z.object({ id: pathId("id") });

/**
 * Households in the back office (issue 23, decision 020): clients an admin groups, optionally with a combined
 * view. Nothing is queued for the BI service: the row-security attributes travel with each embed and are decided
 * when it is made, and every change here is an unsafe request, so every instance's access caches are cleared
 * (access/invalidation.ts) and the next embed reads the households as they are now. Admin only: 401 without a
 * session, 403 for any other role, before the body or id is read.
 */
export const householdRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.addHook("onRequest", requireRole("admin"));

  app.get(
    "/api/admin/households",
    { schema: { tags, response: { 200: ZHouseholdsResponseSchema, ...errors } } },
    async () => listHouseholds(db),
  );

  app.post(
    "/api/admin/households",
    { schema: { tags, body: ZHouseholdInputSchema, response: { 201: ZHouseholdResponseSchema, ...errors } } },
    async (request, reply) =>
      reply.status(201).send({
        message: "Household saved.",
        household: await createHousehold(db, request.body, actorOf(request)),
      }),
  );

  app.put(
    "/api/admin/households/:id",
    {
      schema: {
        tags,
        params: householdParams,
        body: ZHouseholdInputSchema,
        response: { 200: ZHouseholdResponseSchema, ...errors },
      },
    },
    async (request) => ({
      message: "Household saved.",
      household: await replaceHousehold(db, request.params.id, request.body, actorOf(request)),
    }),
  );

  app.delete(
    "/api/admin/households/:id",
    { schema: { tags, params: householdParams, response: { 200: ZMessageSchema, ...errors } } },
    async (request) => {
      await deleteHousehold(db, request.params.id, actorOf(request));
      return { message: "Household deleted." };
    },
  );

  app.get(
    "/api/admin/clients/:c_id/household",
    {
      schema: {
        tags,
        params: z.object({ c_id: pathId("c_id") }),
        response: { 200: ZClientHouseholdResponseSchema, ...errors },
      },
    },
    async (request, reply) => reply.send(await householdOfClient(db, request.params.c_id)),
  );
};
