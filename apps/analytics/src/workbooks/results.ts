import { LRUCache } from "lru-cache";
import type { Database } from "../db/database.ts";
import { demoDataVersion } from "../demo/portal-clients.ts";
import { runWorkbookPage, type QueryResult } from "./run.ts";
import type { TWorkbook } from "./schema.ts";

export interface PageRequest {
  clientIds: readonly string[];
  workbook: TWorkbook;
  pageId: string | undefined;
  variables: Record<string, string>;
  /** Only these elements of the page; all by default. */
  only?: ReadonlySet<string> | undefined;
}

/** Freezes a result all the way down: one cached object is handed to every request that asks for it. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * A workbook page's results, kept like Sigma's own result cache: the same page with the same control values,
 * under the same row-security scope, is computed once and then answered from memory until the demo data
 * changes (a client the portal adds or renames, `demoDataVersion`), its time runs out, or room is needed.
 * The key holds the data version, the client ids of the scope (sorted), the workbook, the page, the values
 * of the workbook's controls and the elements asked for, so one person's results can never answer another scope's request.
 * Requests for the same key at the same time share one computation. A result with a failed element is not
 * kept. `ttlMs` 0 turns the cache off.
 */
export class PageResults {
  private readonly cache: LRUCache<string, QueryResult, PageRequest> | undefined;

  constructor(
    private readonly db: Database,
    private readonly readerRole: string,
    private readonly log: (error: unknown, elementId: string) => void,
    options: { ttlMs: number; maxBytes?: number },
  ) {
    if (options.ttlMs <= 0) return;
    this.cache = new LRUCache<string, QueryResult, PageRequest>({
      ttl: options.ttlMs,
      maxSize: options.maxBytes ?? 64 * 1024 * 1024,
      // Twice the JSON length: an estimate of the heap the rows take.
      sizeCalculation: (result) => Math.max(1, JSON.stringify(result).length * 2),
      fetchMethod: async (_key, _stale, { context }) => deepFreeze(await this.compute(context)),
      // An entry pushed out while its page is computed still answers the requests waiting for it (without
      // this, lru-cache rejects them with 'evicted').
      ignoreFetchAbort: true,
    });
  }

  private compute(request: PageRequest): Promise<QueryResult> {
    return runWorkbookPage(
      this.db,
      this.readerRole,
      request.clientIds,
      request.workbook,
      request.pageId,
      request.variables,
      this.log,
      undefined,
      request.only,
    );
  }

  static key(request: PageRequest): string {
    return JSON.stringify([
      demoDataVersion(),
      [...request.clientIds].sort(),
      request.workbook.urlId,
      request.pageId ?? "",
      Object.entries(request.variables).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      request.only ? [...request.only].sort() : null,
    ]);
  }

  async get(asked: PageRequest): Promise<QueryResult> {
    // Only the workbook's controls have values (the page reads no others): anything else a request sends
    // neither changes the result nor makes another entry.
    const controls = new Set(asked.workbook.controls.map((c) => c.id));
    const request = {
      ...asked,
      variables: Object.fromEntries(Object.entries(asked.variables).filter(([id]) => controls.has(id))),
    };
    if (!this.cache) return this.compute(request);
    const key = PageResults.key(request);
    const result = (await this.cache.fetch(key, { context: request })) as QueryResult;
    if (Object.values(result.elements).some((e) => e.error)) this.cache.delete(key);
    return result;
  }

  /** Entries held now (tests and diagnostics). */
  get size(): number {
    return this.cache?.size ?? 0;
  }
}
