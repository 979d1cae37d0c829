import { z } from "zod";
import {
  ZSigmaErrorSchema,
  ZSigmaMemberSchema,
  ZSigmaTeamMemberSchema,
  ZSigmaTeamSchema,
  ZSigmaTokenResponseSchema,
  ZSigmaWorkbookSchema,
  pageOf,
  type TSigmaCreateMember,
  type TSigmaCreateTeam,
  type TSigmaMember,
  type TSigmaTeam,
  type TSigmaTeamMember,
  type TSigmaUpdateMember,
  type TSigmaUpdateTeamMembers,
  type TSigmaWorkbook,
} from "./rest-types.ts";

/** Backoff between retries of a 429/503 answer (Sigma's token endpoint allows about 1 request/s). */
export const DEFAULT_RETRY_DELAYS_MS = [500, 1000, 2000, 4000] as const;

export class SigmaApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
  ) {
    super(`Sigma API ${status} ${code}: ${message}`);
    this.name = "SigmaApiError";
  }
}

export interface SigmaRestClientOptions {
  /** e.g. `https://aws-api.sigmacomputing.com` or `http://127.0.0.1:3100` (paths are under `/v2`). */
  apiBaseUrl: string;
  clientId: string;
  clientSecret: string;
  fetch?: typeof fetch;
  retryDelaysMs?: readonly number[];
  /** Each HTTP call is abandoned after this long (a `TimeoutError`), so a hung service never holds work. */
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

type Query = Record<string, string | number | undefined>;

/** A minimal typed client for the Sigma REST API subset: cached token, paging, retries on 429/503. */
export class SigmaRestClient {
  readonly #o: Required<Omit<SigmaRestClientOptions, "fetch">> & { fetch: typeof fetch };
  #token: { value: string; expiresAt: number } | undefined;
  #tokenPromise: Promise<string> | undefined;

  constructor(options: SigmaRestClientOptions) {
    this.#o = {
      fetch: options.fetch ?? globalThis.fetch,
      retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
      timeoutMs: options.timeoutMs ?? 15_000,
      sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
      now: options.now ?? Date.now,
      apiBaseUrl: options.apiBaseUrl.replace(/\/+$/, ""),
      clientId: options.clientId,
      clientSecret: options.clientSecret,
    };
  }

  /** A bearer token, fetched once and reused until a minute before it expires. */
  async token(): Promise<string> {
    if (this.#token && this.#token.expiresAt - 60_000 > this.#o.now()) return this.#token.value;
    this.#tokenPromise ??= this.#fetchToken().finally(() => {
      this.#tokenPromise = undefined;
    });
    return this.#tokenPromise;
  }

  async #fetchToken(): Promise<string> {
    const body = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: this.#o.clientId,
      client_secret: this.#o.clientSecret,
    });
    const res = await this.#send(`${this.#o.apiBaseUrl}/v2/auth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: body.toString(),
    });
    const token = ZSigmaTokenResponseSchema.parse(await res.json());
    this.#token = { value: token.access_token, expiresAt: this.#o.now() + token.expires_in * 1000 };
    return token.access_token;
  }

  async #send(url: string, init: RequestInit): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const res = await this.#o.fetch(url, { ...init, signal: AbortSignal.timeout(this.#o.timeoutMs) });
      const delay = this.#o.retryDelaysMs[attempt];
      if ((res.status === 429 || res.status === 503) && delay !== undefined) {
        await res.body?.cancel();
        await this.#o.sleep(delay);
        continue;
      }
      if (!res.ok) {
        const text = await res.text();
        let parsed: z.infer<typeof ZSigmaErrorSchema> | undefined;
        try {
          parsed = ZSigmaErrorSchema.parse(JSON.parse(text));
        } catch {
          parsed = undefined;
        }
        throw new SigmaApiError(
          res.status,
          parsed?.code ?? String(res.status),
          parsed?.message ?? text.slice(0, 500),
          parsed?.requestId,
        );
      }
      return res;
    }
  }

  async request<T extends z.ZodType>(
    schema: T,
    method: "GET" | "POST" | "PATCH" | "DELETE",
    path: string,
    options: { query?: Query; body?: unknown } = {},
  ): Promise<z.infer<T>> {
    const url = new URL(`${this.#o.apiBaseUrl}${path}`);
    for (const [k, v] of Object.entries(options.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = {
      authorization: `Bearer ${await this.token()}`,
      accept: "application/json",
    };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    const res = await this.#send(url.toString(), {
      method,
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const text = await res.text();
    return schema.parse(text ? JSON.parse(text) : {});
  }

  /** Follows `nextPage` until it is null. */
  async *paginate<T extends z.ZodType>(
    entry: T,
    path: string,
    query: Query = {},
  ): AsyncGenerator<z.infer<T>> {
    const schema = pageOf(entry);
    let page: string | undefined;
    for (;;) {
      const res = await this.request(schema, "GET", path, { query: { limit: 1000, ...query, page } });
      for (const e of res.entries) yield e as z.infer<T>;
      if (!res.nextPage) return;
      page = res.nextPage;
    }
  }

  async listAll<T extends z.ZodType>(entry: T, path: string, query: Query = {}): Promise<z.infer<T>[]> {
    const out: z.infer<T>[] = [];
    for await (const e of this.paginate(entry, path, query)) out.push(e);
    return out;
  }

  findMemberByEmail(email: string): Promise<TSigmaMember | undefined> {
    return this.listAll(ZSigmaMemberSchema, "/v2/members", { email }).then((m) =>
      m.find((x) => x.email.toLowerCase() === email.toLowerCase()),
    );
  }
  createMember(body: TSigmaCreateMember): Promise<TSigmaMember> {
    return this.request(ZSigmaMemberSchema, "POST", "/v2/members", { body });
  }
  getMember(memberId: string): Promise<TSigmaMember> {
    return this.request(ZSigmaMemberSchema, "GET", `/v2/members/${encodeURIComponent(memberId)}`);
  }
  updateMember(memberId: string, body: TSigmaUpdateMember): Promise<TSigmaMember> {
    return this.request(ZSigmaMemberSchema, "PATCH", `/v2/members/${encodeURIComponent(memberId)}`, { body });
  }
  async deleteMember(memberId: string): Promise<void> {
    await this.request(z.unknown(), "DELETE", `/v2/members/${encodeURIComponent(memberId)}`);
  }
  listTeams(name?: string): Promise<TSigmaTeam[]> {
    return this.listAll(ZSigmaTeamSchema, "/v2/teams", { name });
  }
  createTeam(body: TSigmaCreateTeam): Promise<TSigmaTeam> {
    return this.request(ZSigmaTeamSchema, "POST", "/v2/teams", { body });
  }
  listTeamMembers(teamId: string): Promise<TSigmaTeamMember[]> {
    return this.listAll(ZSigmaTeamMemberSchema, `/v2/teams/${encodeURIComponent(teamId)}/members`);
  }
  async updateTeamMembers(teamId: string, body: TSigmaUpdateTeamMembers): Promise<void> {
    await this.request(z.unknown(), "PATCH", `/v2/teams/${encodeURIComponent(teamId)}/members`, { body });
  }
  /** One cheap authenticated call: true when the service answers it. */
  async ping(): Promise<boolean> {
    try {
      await this.request(pageOf(ZSigmaTeamSchema), "GET", "/v2/teams", { query: { limit: 1 } });
      return true;
    } catch {
      return false;
    }
  }
  listWorkbooks(): Promise<TSigmaWorkbook[]> {
    return this.listAll(ZSigmaWorkbookSchema, "/v2/workbooks");
  }
}
