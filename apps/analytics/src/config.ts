import path from "node:path";
import { z } from "zod";
import { loadOrCreateLocalSigmaCredentials } from "@portal/sigma";
import { parseDemoSize, type DemoSize } from "./demo/load.ts";
import { DEFAULT_READER_ROLE } from "./db/row-security.ts";

const origin = z.url().transform((u, ctx) => {
  const parsed = new URL(u);
  if (!["http:", "https:"].includes(parsed.protocol) || parsed.origin !== u.replace(/\/+$/, "")) {
    ctx.addIssue({ code: "custom", message: `not an origin (scheme://host[:port]): ${u}` });
    return z.NEVER;
  }
  return parsed.origin;
});

/** Environment of the built-in analytics server, validated at boot. */
export const ZAnalyticsEnvSchema = z
  .object({
    ANALYTICS_PORT: z.coerce.number().int().min(0).max(65535).default(3100),
    ANALYTICS_HOST: z.string().min(1).default("127.0.0.1"),
    ANALYTICS_PUBLIC_URL: z.url().optional(),
    ANALYTICS_ORG_SLUG: z
      .string()
      .regex(/^[a-z0-9-]{1,64}$/)
      .default("local"),
    ANALYTICS_ALLOWED_PARENT_ORIGINS: z.string().optional(),
    PUBLIC_URL: z.url().optional(),
    DATA_DIR: z.string().min(1).default("./data"),
    ANALYTICS_DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
      .optional(),
    ANALYTICS_DEMO_SIZE: z.string().default("small"),
    ANALYTICS_DEMO_SEED: z.coerce.number().int().optional(),
    ANALYTICS_DEMO_AS_OF: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
    ANALYTICS_READER_ROLE: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/)
      .default(DEFAULT_READER_ROLE),
    ANALYTICS_EMBED_CLIENT_ID: z.string().min(8).optional(),
    ANALYTICS_EMBED_SECRET: z.string().min(32).optional(),
    ANALYTICS_API_CLIENT_ID: z.string().min(8).optional(),
    ANALYTICS_API_CLIENT_SECRET: z.string().min(32).optional(),
    ANALYTICS_RESULT_CACHE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
    ANALYTICS_LOG_LEVEL: z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
      .default("info"),
  })
  .superRefine((env, ctx) => {
    const embed = [env.ANALYTICS_EMBED_CLIENT_ID, env.ANALYTICS_EMBED_SECRET];
    const api = [env.ANALYTICS_API_CLIENT_ID, env.ANALYTICS_API_CLIENT_SECRET];
    for (const [name, pair] of [
      ["ANALYTICS_EMBED_CLIENT_ID and ANALYTICS_EMBED_SECRET", embed],
      ["ANALYTICS_API_CLIENT_ID and ANALYTICS_API_CLIENT_SECRET", api],
    ] as const) {
      if (pair.filter(Boolean).length === 1)
        ctx.addIssue({ code: "custom", message: `set both ${name}, or neither` });
    }
    try {
      parseDemoSize(env.ANALYTICS_DEMO_SIZE);
    } catch (error) {
      ctx.addIssue({ code: "custom", path: ["ANALYTICS_DEMO_SIZE"], message: (error as Error).message });
    }
  });

export interface AnalyticsConfig {
  port: number;
  host: string;
  /** Origin the browser reaches this server at (embed URLs and `/v2/workbooks` urls use it). */
  publicUrl: string;
  orgSlug: string;
  allowedParentOrigins: string[];
  dataDir: string;
  databaseUrl: string | undefined;
  demo: { size: DemoSize; seed: number | undefined; asOf: string | undefined };
  readerRole: string;
  embedClients: { clientId: string; secret: string }[];
  apiClients: { clientId: string; secret: string }[];
  logLevel: z.infer<typeof ZAnalyticsEnvSchema>["ANALYTICS_LOG_LEVEL"];
  /** How long a workbook page's results are kept (workbooks/results.ts); 0: not kept. */
  resultCacheSeconds: number;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Reads and validates the environment; a readable list of problems when it is wrong. */
export async function loadAnalyticsConfig(env: NodeJS.ProcessEnv = process.env): Promise<AnalyticsConfig> {
  const parsed = ZAnalyticsEnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join(".") || "env"}: ${i.message}`);
    throw new ConfigError(`Invalid analytics server configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const originsRaw = e.ANALYTICS_ALLOWED_PARENT_ORIGINS ?? e.PUBLIC_URL ?? "http://127.0.0.1:3000";
  const origins: string[] = [];
  for (const part of originsRaw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const o = origin.safeParse(part);
    if (!o.success)
      throw new ConfigError(
        `Invalid analytics server configuration:\n  - ANALYTICS_ALLOWED_PARENT_ORIGINS: ${part} is not an origin`,
      );
    origins.push(o.data);
    // The same local portal is often opened as localhost and as 127.0.0.1: allow both spellings.
    const u = new URL(o.data);
    if (u.hostname === "127.0.0.1" || u.hostname === "localhost") {
      u.hostname = u.hostname === "localhost" ? "127.0.0.1" : "localhost";
      if (!origins.includes(u.origin)) origins.push(u.origin);
    }
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const needLocal = !e.ANALYTICS_EMBED_CLIENT_ID || !e.ANALYTICS_API_CLIENT_ID;
  const local = needLocal ? await loadOrCreateLocalSigmaCredentials(dataDir) : undefined;
  return {
    port: e.ANALYTICS_PORT,
    host: e.ANALYTICS_HOST,
    publicUrl: (e.ANALYTICS_PUBLIC_URL ?? `http://127.0.0.1:${e.ANALYTICS_PORT}`).replace(/\/+$/, ""),
    orgSlug: e.ANALYTICS_ORG_SLUG,
    allowedParentOrigins: origins,
    dataDir,
    databaseUrl: e.ANALYTICS_DATABASE_URL,
    demo: {
      size: parseDemoSize(e.ANALYTICS_DEMO_SIZE),
      seed: e.ANALYTICS_DEMO_SEED,
      asOf: e.ANALYTICS_DEMO_AS_OF,
    },
    readerRole: e.ANALYTICS_READER_ROLE,
    embedClients: [
      e.ANALYTICS_EMBED_CLIENT_ID && e.ANALYTICS_EMBED_SECRET
        ? { clientId: e.ANALYTICS_EMBED_CLIENT_ID, secret: e.ANALYTICS_EMBED_SECRET }
        : { clientId: local!.embedClientId, secret: local!.embedSecret },
    ],
    apiClients: [
      e.ANALYTICS_API_CLIENT_ID && e.ANALYTICS_API_CLIENT_SECRET
        ? { clientId: e.ANALYTICS_API_CLIENT_ID, secret: e.ANALYTICS_API_CLIENT_SECRET }
        : { clientId: local!.apiClientId, secret: local!.apiClientSecret },
    ],
    logLevel: e.ANALYTICS_LOG_LEVEL,
    resultCacheSeconds: e.ANALYTICS_RESULT_CACHE_SECONDS,
  };
}
