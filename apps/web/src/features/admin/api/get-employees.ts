import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";

import { ZEmployeeSchema } from "@portal/contracts";
import type { EMPLOYEE_SORTS, TEmployee } from "@portal/contracts";

import type { TListPage, TListParams } from "../utils/paging";
import { pendingSyncPollInterval } from "../utils/sync";
import { listRequest } from "./list-request";

export type TEmployeeListParams = TListParams & { sort?: (typeof EMPLOYEE_SORTS)[number] };

/** Every cached employee list starts with this key; mutations invalidate it. */
export const employeesQueryKey = ["admin", "employees"] as const;

/** GET /api/admin/employees: one page of employees with their assigned clients. */
export function getEmployees(
  params: TEmployeeListParams,
  signal?: AbortSignal,
): Promise<TListPage<TEmployee>> {
  return listRequest("/api/admin/employees", params, {
    item: ZEmployeeSchema,
    fallbackError: "Failed to load employees.",
    signal,
  });
}

export const employeesQueryOptions = (params: TEmployeeListParams = {}) =>
  queryOptions({
    queryKey: [...employeesQueryKey, "list", params],
    queryFn: ({ signal }) => getEmployees(params, signal),
  });

/** Like useClients: the previous page stays while the next loads; pending syncs are followed. */
export function useEmployees(params: TEmployeeListParams) {
  return useQuery({
    ...employeesQueryOptions(params),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => pendingSyncPollInterval(query.state.data),
  });
}
