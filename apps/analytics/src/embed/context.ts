import type { FastifyInstance } from "fastify";
import type { AnalyticsConfig } from "../config.ts";
import type { Database } from "../db/database.ts";
import type { PageResults } from "../workbooks/results.ts";
import type { TWorkbook } from "../workbooks/schema.ts";
import type { LayoutReports } from "./layout.ts";

export interface EmbedDeps {
  config: AnalyticsConfig;
  db: Database;
  workbooks: Map<string, TWorkbook>;
}

/** What the embed routes share: their dependencies, the pending layout reports and the kept results. */
export interface EmbedContext extends EmbedDeps {
  layouts: LayoutReports;
  layoutUrl: string;
  results: PageResults;
  /** Forgets old jtis, at most once an hour. */
  prune: () => Promise<void>;
  log: FastifyInstance["log"];
}

/** The page's own requests name its session by the token in `Authorization: Bearer …`. */
export const BEARER = /^Bearer ([A-Za-z0-9_-]{20,100})$/;
