import type { z } from "zod";
import {
  ZSigmaAccountTypesPageSchema,
  ZSigmaCreateGrantSchema,
  ZSigmaCreateMemberSchema,
  ZSigmaCreatedTeamSchema,
  ZSigmaCreateTeamSchema,
  ZSigmaEmptySchema,
  ZSigmaErrorSchema,
  ZSigmaGrantSchema,
  ZSigmaMemberSchema,
  ZSigmaTeamMemberSchema,
  ZSigmaTeamSchema,
  ZSigmaTokenResponseSchema,
  ZSigmaUpdateMemberSchema,
  ZSigmaUpdateTeamMembersSchema,
  ZSigmaUserAttributeSchema,
  ZSigmaWorkbookSchema,
  listOf,
  type TSigmaAccountTypeEntry,
  type TSigmaCreateGrant,
  type TSigmaCreateMember,
  type TSigmaCreateTeam,
  type TSigmaGrant,
  type TSigmaMember,
  type TSigmaTeam,
  type TSigmaTeamMember,
  type TSigmaUpdateMember,
  type TSigmaUpdateTeamMembers,
  type TSigmaUserAttribute,
  type TSigmaWorkbook,
} from "./rest-schemas.ts";

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

type Query = Record<string, string | number | boolean | undefined>;

/** A zod error's first issues, as one line naming each field. */
function issuesOf(error: z.ZodError, root: string): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join(".") || root}: ${i.message}`)
    .join("; ");
}

/** Reads an answer with its operation's schema; an answer that does not fit is reported with the operation. */
function parseAnswer<T extends z.ZodType>(operation: string, schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new SigmaShapeError(
    `Sigma's answer to ${operation} does not fit its published shape (${issuesOf(parsed.error, "answer")}).`,
  );
}

/**
 * An answer of the BI service that does not fit Sigma's published definition, or a request of the portal's
 * that does not (refused before it is sent).
 */
export class SigmaShapeError extends Error {
  override name = "SigmaShapeError";
}

/** The request body as the operation's schema has it, or a `SigmaShapeError` naming the operation. */
function requestBody<T extends z.ZodType>(operation: string, schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new SigmaShapeError(
    `The request for ${operation} does not fit Sigma's definition (${issuesOf(parsed.error, "body")}).`,
  );
}

/**
 * A typed client for the Sigma REST API calls the portal makes, one method per operation id, each request
 * and answer checked against `rest-schemas.ts`. The token is fetched once and reused; a 401 (token revoked,
 * credentials rotated) gets one fresh token and one more try; 429 and 503 are retried with backoff.
 */
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

  /** postToken: a bearer token, fetched once and reused until a minute before it expires. */
  async token(): Promise<string> {
    if (this.#token && this.#token.expiresAt - 60_000 > this.#o.now()) return this.#token.value;
    this.#tokenPromise ??= this.#fetchToken().finally(() => {
      this.#tokenPromise = undefined;
    });
    return this.#tokenPromise;
  }

  /** Forgets the cached token (it was refused): the next call fetches a new one. */
  #dropToken(refused: string) {
    if (this.#token?.value === refused) this.#token = undefined;
  }

  async #fetchToken(): Promise<string> {
    // The "Access token" variant: the client id and secret by HTTP Basic authentication (RFC 6749 2.3.1).
    const basic = Buffer.from(
      `${encodeURIComponent(this.#o.clientId)}:${encodeURIComponent(this.#o.clientSecret)}`,
    ).toString("base64");
    const res = await this.#send(`${this.#o.apiBaseUrl}/v2/auth/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${basic}`,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: new URLSearchParams({ grant_type: "client_credentials" }).toString(),
    });
    const token = parseAnswer("postToken", ZSigmaTokenResponseSchema, await res.json());
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

  /** One call of `operation`, its answer read with `schema`. */
  async request<T extends z.ZodType>(
    operation: string,
    schema: T,
    method: "GET" | "POST" | "PATCH" | "DELETE",
    path: string,
    options: { query?: Query; body?: unknown } = {},
  ): Promise<z.infer<T>> {
    const url = new URL(`${this.#o.apiBaseUrl}${path}`);
    for (const [k, v] of Object.entries(options.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    const send = async (token: string) => {
      const headers: Record<string, string> = {
        authorization: `Bearer ${token}`,
        accept: "application/json",
      };
      if (options.body !== undefined) headers["content-type"] = "application/json";
      return this.#send(url.toString(), {
        method,
        headers,
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      });
    };
    const token = await this.token();
    let res: Response;
    try {
      res = await send(token);
    } catch (error) {
      // Revoked, expired early, or the credentials were rotated: one fresh token, one more try.
      if (!(error instanceof SigmaApiError) || error.status !== 401) throw error;
      this.#dropToken(token);
      res = await send(await this.token());
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      throw new SigmaShapeError(`Sigma's answer to ${operation} is not JSON.`);
    }
    return parseAnswer(operation, schema, body);
  }

  /** Every entry of a paged list, following `nextPage` until it is null. */
  async listAll<T extends z.ZodType>(
    operation: string,
    entry: T,
    path: string,
    query: Query = {},
  ): Promise<z.infer<T>[]> {
    const schema = listOf(entry);
    const out: z.infer<T>[] = [];
    let page: string | undefined;
    for (;;) {
      const res = await this.request(operation, schema, "GET", path, {
        query: { limit: 1000, ...query, page },
      });
      out.push(...(res.entries as z.infer<T>[]));
      if (!res.nextPage) return out;
      page = res.nextPage;
    }
  }

  // ---- Members ----

  /** listMembers: everyone in the org, or one email; archived and SCIM-inactive members only when asked. */
  listMembers(
    query: { email?: string; includeArchived?: boolean; includeInactive?: boolean } = {},
  ): Promise<TSigmaMember[]> {
    return this.listAll("listMembers", ZSigmaMemberSchema, "/v2/members", query);
  }
  /**
   * The member with this email, whatever their state: deactivated (`isArchived`) and SCIM-inactive members
   * are included, so a person deleted and added again is found and brought back, never created twice.
   */
  async findMemberByEmail(email: string): Promise<TSigmaMember | undefined> {
    const found = await this.listMembers({ email, includeArchived: true, includeInactive: true });
    const same = found.filter((m) => m.email.toLowerCase() === email.toLowerCase());
    // Prefer an active member if the org somehow holds more than one.
    return same.find((m) => !m.isArchived && !m.isInactive) ?? same[0];
  }
  createMember(body: TSigmaCreateMember): Promise<TSigmaMember> {
    return this.request("createMember", ZSigmaMemberSchema, "POST", "/v2/members", {
      body: requestBody("createMember", ZSigmaCreateMemberSchema, body),
    });
  }
  getMember(memberId: string): Promise<TSigmaMember> {
    return this.request(
      "getMember",
      ZSigmaMemberSchema,
      "GET",
      `/v2/members/${encodeURIComponent(memberId)}`,
    );
  }
  updateMember(memberId: string, body: TSigmaUpdateMember): Promise<TSigmaMember> {
    return this.request(
      "updateMember",
      ZSigmaMemberSchema,
      "PATCH",
      `/v2/members/${encodeURIComponent(memberId)}`,
      { body: requestBody("updateMember", ZSigmaUpdateMemberSchema, body) },
    );
  }
  /** deleteMember: Sigma deactivates (archives) the member; nobody is erased. */
  async deleteMember(memberId: string): Promise<void> {
    await this.request(
      "deleteMember",
      ZSigmaEmptySchema,
      "DELETE",
      `/v2/members/${encodeURIComponent(memberId)}`,
    );
  }

  // ---- Teams ----

  listTeams(name?: string): Promise<TSigmaTeam[]> {
    return this.listAll("listTeams", ZSigmaTeamSchema, "/v2/teams", { name });
  }
  createTeam(body: TSigmaCreateTeam): Promise<TSigmaTeam> {
    return this.request("createTeam", ZSigmaCreatedTeamSchema, "POST", "/v2/teams", {
      body: requestBody("createTeam", ZSigmaCreateTeamSchema, body),
    });
  }
  /** getTeamMembers: the team's members by `userId` (their member id). */
  getTeamMembers(teamId: string): Promise<TSigmaTeamMember[]> {
    return this.listAll(
      "getTeamMembers",
      ZSigmaTeamMemberSchema,
      `/v2/teams/${encodeURIComponent(teamId)}/members`,
    );
  }
  async updateTeamMembers(teamId: string, body: TSigmaUpdateTeamMembers): Promise<void> {
    await this.request(
      "updateTeamMembers",
      ZSigmaEmptySchema,
      "PATCH",
      `/v2/teams/${encodeURIComponent(teamId)}/members`,
      { body: requestBody("updateTeamMembers", ZSigmaUpdateTeamMembersSchema, body) },
    );
  }

  // ---- Workbooks and sharing ----

  listWorkbooks(): Promise<TSigmaWorkbook[]> {
    return this.listAll("listWorkbooks", ZSigmaWorkbookSchema, "/v2/workbooks");
  }
  getWorkbook(workbookId: string): Promise<TSigmaWorkbook> {
    return this.request(
      "getWorkbook",
      ZSigmaWorkbookSchema,
      "GET",
      `/v2/workbooks/${encodeURIComponent(workbookId)}`,
    );
  }
  /** listGrants of a document (a workbook's `workbookId` is its inode id), a team, or a member. */
  listGrants(query: { inodeId?: string; teamId?: string; userId?: string }): Promise<TSigmaGrant[]> {
    return this.listAll("listGrants", ZSigmaGrantSchema, "/v2/grants", query);
  }
  /** createGrant: raises a member's or team's access to a document (never lowers it). */
  createGrant(body: TSigmaCreateGrant): Promise<TSigmaGrant> {
    return this.request("createGrant", ZSigmaGrantSchema, "POST", "/v2/grants", {
      body: requestBody("createGrant", ZSigmaCreateGrantSchema, body),
    });
  }
  async deleteGrant(grantId: string): Promise<void> {
    await this.request(
      "deleteGrant",
      ZSigmaGrantSchema,
      "DELETE",
      `/v2/grants/${encodeURIComponent(grantId)}`,
    );
  }

  // ---- The org's set-up (checked by `npm run sigma:check`) ----

  /** listAccountTypes, following `nextPageToken` (absent on the last page). */
  async listAccountTypes(): Promise<TSigmaAccountTypeEntry[]> {
    const out: TSigmaAccountTypeEntry[] = [];
    let pageToken: string | undefined;
    do {
      const res = await this.request(
        "listAccountTypes",
        ZSigmaAccountTypesPageSchema,
        "GET",
        "/v2/accountTypes",
        { query: { pageSize: 1000, pageToken } },
      );
      out.push(...res.entries);
      pageToken = res.nextPageToken;
    } while (pageToken);
    return out;
  }
  listUserAttributes(name?: string): Promise<TSigmaUserAttribute[]> {
    return this.listAll("listUserAttributes", ZSigmaUserAttributeSchema, "/v2/user-attributes", { name });
  }

  /** One cheap authenticated call (listTeams, one entry): true when the service answers it. */
  async ping(): Promise<boolean> {
    try {
      await this.request("listTeams", listOf(ZSigmaTeamSchema), "GET", "/v2/teams", { query: { limit: 1 } });
      return true;
    } catch {
      return false;
    }
  }
}
