import {
  IMPORT_MAX_BYTES,
  ZErrorResponseSchema,
  ZImportJobIdParamsSchema,
  ZImportJobSchema,
  ZPersonKindSchema,
  ZImportMappingRequestSchema,
  ZImportUploadQuerySchema,
} from "@portal/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf } from "../audit/actor.ts";
import { requireRole } from "../plugins/authenticate.ts";
import type { Database } from "../db/client.ts";
import { createImport, failedRowsFile, getImport, remapImport, startImport } from "./jobs.ts";
import { AppError } from "../lib/errors.ts";
import { adminErrorResponses } from "../lib/error-responses.ts";

const errors = {
  ...adminErrorResponses,
  413: ZErrorResponseSchema,
};

/** Media types a browser or a script may send a CSV file as (Windows calls it an Excel file). */
const CSV_TYPES = [
  "text/csv",
  "text/plain",
  "application/csv",
  "application/vnd.ms-excel",
  "application/octet-stream",
];

const megabytes = IMPORT_MAX_BYTES / (1024 * 1024);

/**
 * CSV import of clients and employees (issue 14, decision 013): upload → preview, column mapping, start, progress
 * and the failed rows. Admin only (401, 403 before the body is read).
 * The file is the request body itself (`Content-Type: text/csv`), up to 20 MB.
 */
export const adminImportRoutes: FastifyPluginAsyncZod<{
  db: Database;
  /** Invitations can be mailed (D55): rows without a password are invited. */
  canInvite?: boolean;
}> = async (app, { db, canInvite = false }) => {
  // Before the body is parsed or validated (authorization before validation): 401, then 403, then 400.
  app.addHook("onRequest", requireRole("admin"));
  app.addContentTypeParser(
    CSV_TYPES,
    { parseAs: "buffer", bodyLimit: IMPORT_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );
  // Fastify's own 413 says "Request body is too large": say which limit, then answer as every route does.
  app.setErrorHandler((error, _request, _reply) => {
    if ((error as { code?: string }).code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      throw new AppError(
        413,
        `The file is larger than ${megabytes} MB. Split it into smaller files.`,
        "FILE_TOO_LARGE",
      );
    }
    if ((error as { code?: string }).code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
      throw new AppError(400, "Upload the file as CSV (Content-Type: text/csv).", "NOT_CSV");
    }
    throw error;
  });

  app.post(
    "/api/admin/imports",
    {
      bodyLimit: IMPORT_MAX_BYTES,
      schema: {
        tags: ["import"],
        querystring: ZImportUploadQuerySchema.extend({ kind: ZPersonKindSchema }),
        response: { 201: ZImportJobSchema, ...errors },
      },
    },
    async (request, reply) => {
      const bytes = request.body;
      if (!Buffer.isBuffer(bytes)) {
        throw new AppError(400, "Upload the file as CSV (Content-Type: text/csv).", "NOT_CSV");
      }
      const jobId = await createImport(
        db,
        { kind: request.query.kind, fileName: request.query.fileName ?? `${request.query.kind}s.csv`, bytes },
        actorOf(request),
        canInvite,
      );
      return reply.status(201).send(await getImport(db, jobId));
    },
  );

  app.get(
    "/api/admin/imports/:jobId",
    {
      schema: {
        tags: ["import"],
        params: ZImportJobIdParamsSchema,
        response: { 200: ZImportJobSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return getImport(db, request.params.jobId);
    },
  );

  app.put(
    "/api/admin/imports/:jobId/mapping",
    {
      schema: {
        tags: ["import"],
        params: ZImportJobIdParamsSchema,
        body: ZImportMappingRequestSchema,
        response: { 200: ZImportJobSchema, ...errors },
      },
    },
    async (request) => {
      await remapImport(db, request.params.jobId, request.body.mapping, canInvite);
      return getImport(db, request.params.jobId);
    },
  );

  app.post(
    "/api/admin/imports/:jobId/start",
    {
      schema: {
        tags: ["import"],
        params: ZImportJobIdParamsSchema,
        response: { 202: ZImportJobSchema, ...errors },
      },
    },
    async (request, reply) => {
      await startImport(db, request.params.jobId, actorOf(request), canInvite);
      return reply.status(202).send(await getImport(db, request.params.jobId));
    },
  );

  app.get(
    "/api/admin/imports/:jobId/failed.csv",
    {
      schema: {
        tags: ["import"],
        params: ZImportJobIdParamsSchema,
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const file = await failedRowsFile(db, request.params.jobId);
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${file.fileName.replace(/[^\w.-]+/g, "_")}"`)
        .header("cache-control", "no-store")
        .send(file.csv);
    },
  );
};
