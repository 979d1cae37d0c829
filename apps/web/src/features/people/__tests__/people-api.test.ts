import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";

import { ZClientSchema } from "@portal/contracts";
import type { TClient } from "@portal/contracts";

import { AppRequestError } from "@/lib/errors";
import { removeFromCachedLists } from "@/lib/list-cache";
import type { TListPage } from "@/lib/paging";
import { peopleQueryKey } from "@/lib/people-screens";

import { findPerson, getPeople, peopleQueryOptions } from "../api/people";
import type { TPeopleListParams } from "../api/people";
import { clientUi } from "../utils/kinds";

// Parsed, so the fixture has exactly the fields the contract knows (it strips any others).
const client = (cId: number, clientId: string): TClient =>
  ZClientSchema.parse({
    c_id: cId,
    client_id: clientId,
    first_name: "Olivia",
    last_name: "Bennett",
    email: `c${cId}@example.com`,
    privilege: "View",
    workbook_ids: [],
    employees: [],
    sync_status: "synced",
    sync_error: null,
    sync_waiting_since: null,
    managed_in_sigma: false,
    two_factor_enabled: false,
  });

function answer(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}) {
  const fetchMock = vi.fn(
    async () =>
      new Response(JSON.stringify(body), {
        status: init.status ?? 200,
        headers: { "Content-Type": "application/json", ...init.headers },
      }),
  );
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

// The people module's calls (`people/api.ts`), for clients.
const getClients = (params: TPeopleListParams) => getPeople(clientUi, params);
const findClient = (clientId: string) => findPerson(clientUi, clientId);
const clientsQueryOptions = (params: TPeopleListParams) => peopleQueryOptions(clientUi, params);
const clientsQueryKey = peopleQueryKey("client");

describe("getClients", () => {
  it("asks for the page and reads the total from X-Total-Count", async () => {
    const fetchMock = answer([client(1, "CL-1")], { headers: { "X-Total-Count": "120" } });
    const page = await getClients({ q: "oli", offset: 50 });
    expect(fetchMock).toHaveBeenCalledWith(
      "/api/admin/clients?q=oli&offset=50",
      expect.objectContaining({ credentials: "same-origin" }),
    );
    expect(page).toEqual({ rows: [client(1, "CL-1")], total: 120, limit: 50, offset: 50 });
  });

  it("shows the server's error, else the fallback", async () => {
    answer({ error: "Only admins can do this." }, { status: 403 });
    await expect(getClients({})).rejects.toThrow("Only admins can do this.");
    answer({ unexpected: true });
    await expect(getClients({})).rejects.toThrow("Failed to load clients.");
  });
});

describe("findClient", () => {
  it("picks the exact Client ID among the prefix matches", async () => {
    const fetchMock = answer([client(7, "CL-10"), client(8, "CL-100")], {
      headers: { "X-Total-Count": "2" },
    });
    await expect(findClient("CL-100")).resolves.toMatchObject({ c_id: 8 });
    expect(fetchMock).toHaveBeenCalledWith(
      "/api/admin/clients?q=CL-100&limit=20&sort=client_id",
      expect.anything(),
    );
  });

  it("says so when the client is gone", async () => {
    answer([client(7, "CL-10")]);
    const error = await findClient("CL-1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppRequestError);
    expect((error as AppRequestError).status).toBe(404);
  });
});

describe("removeFromCachedLists", () => {
  it("drops the row from every cached page of the list and lowers the total", () => {
    const queryClient = new QueryClient();
    const first = clientsQueryOptions({});
    const search = clientsQueryOptions({ q: "oli" });
    queryClient.setQueryData<TListPage<TClient>>(first.queryKey, {
      rows: [client(1, "A"), client(2, "B")],
      total: 10,
      limit: 50,
      offset: 0,
    });
    queryClient.setQueryData<TListPage<TClient>>(search.queryKey, {
      rows: [client(2, "B")],
      total: 1,
      limit: 50,
      offset: 0,
    });

    removeFromCachedLists<TClient>(queryClient, clientsQueryKey, (row) => row.c_id === 2);

    expect(queryClient.getQueryData<TListPage<TClient>>(first.queryKey)).toMatchObject({
      rows: [client(1, "A")],
      total: 9,
    });
    expect(queryClient.getQueryData<TListPage<TClient>>(search.queryKey)).toMatchObject({
      rows: [],
      total: 0,
    });
  });
});
