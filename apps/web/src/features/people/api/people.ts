import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { QueryClient } from "@tanstack/react-query";
import { z } from "zod";

import { PEOPLE, ZMessageSchema, ZTwoFactorResetResponseSchema } from "@portal/contracts";
import type { TPersonKind } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";
import { apiListRequest } from "@/lib/api-list";
import { AppRequestError } from "@/lib/errors";
import { removeFromCachedLists } from "@/lib/list-cache";
import type { TListPage, TListParams } from "@/lib/paging";
import { peopleQueryKey } from "@/lib/people-screens";

import type { TPersonRow, TPersonUi } from "../utils/person-ui";
import { SYNC_RETRY_FAILED, pendingSyncPollInterval } from "../utils/sync-status";

/**
 * The back office's calls for clients and employees, written once for both kinds (the kind's paths, schemas
 * and words come from its `TPersonUi`, `utils/kinds.ts`).
 */

export type TPeopleListParams = TListParams & { sort?: string };

/** After a change to one person, both lists: clients list their employees by name, and employees their clients. */
const invalidateBothLists = (queryClient: QueryClient) =>
  Promise.all(
    (Object.keys(PEOPLE) as TPersonKind[]).map((kind) =>
      queryClient.invalidateQueries({ queryKey: peopleQueryKey(kind) }),
    ),
  );

/** GET /api/admin/clients or /employees: one page of the kind's people. */
export function getPeople<R extends TPersonRow>(
  kind: TPersonUi<R>,
  params: TPeopleListParams,
  signal?: AbortSignal,
): Promise<TListPage<R>> {
  return apiListRequest(kind.words.paths.list, params, {
    item: kind.schemas.row,
    fallbackError: kind.text.loadListFailed,
    signal,
  });
}

export const peopleQueryOptions = <R extends TPersonRow>(
  kind: TPersonUi<R>,
  params: TPeopleListParams = {},
) =>
  queryOptions({
    queryKey: [...peopleQueryKey(kind.kind), "list", params],
    queryFn: ({ signal }) => getPeople(kind, params, signal),
  });

/**
 * Keeps the previous page on screen while the next one (or a new search) loads, and fetches the page
 * again every few seconds while one of its people is still on the way to Sigma.
 */
export const peopleListQuery = <R extends TPersonRow>(kind: TPersonUi<R>, params: TPeopleListParams) =>
  queryOptions({
    ...peopleQueryOptions(kind, params),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => pendingSyncPollInterval(query.state.data),
  });

export function usePeople<R extends TPersonRow>(kind: TPersonUi<R>, params: TPeopleListParams) {
  return useQuery(peopleListQuery(kind, params));
}

/**
 * One person by their business ID, for an edit screen opened from the address bar (a reload or a bookmark),
 * where nobody came along with the navigation. The list's prefix search narrows the candidates; the exact
 * ID picks the one (sorted by the ID, an exact match comes first).
 */
export async function findPerson<R extends TPersonRow>(
  kind: TPersonUi<R>,
  businessId: string,
  signal?: AbortSignal,
): Promise<R> {
  const page = await getPeople(kind, { q: businessId, sort: kind.words.businessIdParam, limit: 20 }, signal);
  const person = page.rows.find((row) => kind.businessIdOf(row) === businessId);
  if (!person) throw new AppRequestError(kind.text.notFound, { status: 404 });
  return person;
}

export const findPersonQueryOptions = <R extends TPersonRow>(kind: TPersonUi<R>, businessId: string) =>
  queryOptions({
    queryKey: [
      ...peopleQueryKey(kind.kind),
      `by-${kind.words.businessIdParam.replace("_", "-")}`,
      businessId,
    ],
    queryFn: ({ signal }) => findPerson(kind, businessId, signal),
    retry: false,
  });

/** The person passed along by the list (`initial`), else looked up by their business ID. */
export function usePerson<R extends TPersonRow>(
  kind: TPersonUi<R>,
  businessId: string,
  initial: R | undefined,
) {
  return useQuery({
    ...findPersonQueryOptions(kind, businessId),
    enabled: businessId !== "" && initial === undefined,
  });
}

/**
 * POST /api/admin/addclient or /addemployee: the person, their sign-in account and assignments in one go:
 * the spec's payload with a password, or without one and `invite: true` ("Send an invitation", D55).
 */
export function useAddPerson<R extends TPersonRow>(kind: TPersonUi<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: object) =>
      apiRequest(kind.words.paths.add, {
        method: "POST",
        body,
        schema: kind.schemas.addResponse,
        fallbackError: kind.text.addFailed,
      }),
    onSuccess: () => invalidateBothLists(queryClient),
  });
}

/** PUT /api/admin/editclient or /editemployee: what the kind's edit screen changes. */
export function useEditPerson<R extends TPersonRow>(kind: TPersonUi<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: object) =>
      apiRequest(kind.words.paths.edit, {
        method: "PUT",
        body,
        schema: z.object({ message: z.string(), data: kind.schemas.row }),
        fallbackError: kind.text.updateFailed,
      }),
    onSuccess: () => invalidateBothLists(queryClient),
  });
}

/** DELETE /api/admin/deleteclient/{c_id} or /deleteemployee/{e_id}: removes them and ends their sign-in (D19). */
export function useDeletePerson<R extends TPersonRow>(kind: TPersonUi<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiRequest(`${kind.words.paths.remove}/${id}`, {
        method: "DELETE",
        schema: ZMessageSchema,
        fallbackError: kind.text.deleteFailed,
      }),
    onSuccess: (_result, id) => {
      removeFromCachedLists<R>(queryClient, peopleQueryKey(kind.kind), (row) => kind.idOf(row) === id);
      return invalidateBothLists(queryClient);
    },
  });
}

export const ZResyncResponseSchema = z.object({ message: z.string(), requeued: z.number().int() });

/** POST /api/admin/resyncclient/{c_id} or /resyncemployee/{e_id}: the person's failed changes go to Sigma again. */
export function useResyncPerson(kind: TPersonKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiRequest(`${PEOPLE[kind].paths.resync}/${id}`, {
        method: "POST",
        schema: ZResyncResponseSchema,
        fallbackError: SYNC_RETRY_FAILED,
      }),
    // Settles once the lists show the re-queued state (the retry's spinner lasts until then).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: peopleQueryKey(kind) }),
  });
}

/** A client or employee, by the id the admin pages use (`c_id` / `e_id`). */
export type TPersonTarget = { kind: TPersonKind; id: number };

/**
 * POST /api/admin/resettwofactorclient/{c_id} or …employee/{e_id}: removes the person's two-step
 * verification after they lost their authenticator app and backup codes, and signs them out.
 */
export function useResetTwoFactor(target: TPersonTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest(`${PEOPLE[target.kind].paths.resetTwoFactor}/${target.id}`, {
        method: "POST",
        schema: ZTwoFactorResetResponseSchema,
        fallbackError: "Two-step verification could not be reset. Please try again.",
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: peopleQueryKey(target.kind) }),
  });
}
