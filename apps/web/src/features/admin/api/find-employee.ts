import { queryOptions, useQuery } from "@tanstack/react-query";

import type { TEmployee } from "@portal/contracts";

import { AppRequestError } from "@/lib/errors";

import { employeesQueryKey, getEmployees } from "./get-employees";

export const EMPLOYEE_NOT_FOUND = "This employee no longer exists. It may have been deleted.";

/**
 * One employee by its Employee ID, for Edit Employee opened from the address bar (a reload or a bookmark),
 * where no employee came along with the navigation. The list's prefix search narrows the candidates;
 * the exact Employee ID picks the one (sorted by Employee ID, an exact match comes first).
 */
export async function findEmployee(employeeId: string, signal?: AbortSignal): Promise<TEmployee> {
  const page = await getEmployees({ q: employeeId, sort: "employee_id", limit: 20 }, signal);
  const employee = page.rows.find((row) => row.employee_id === employeeId);
  if (!employee) throw new AppRequestError(EMPLOYEE_NOT_FOUND, { status: 404 });
  return employee;
}

export const findEmployeeQueryOptions = (employeeId: string) =>
  queryOptions({
    queryKey: [...employeesQueryKey, "by-employee-id", employeeId],
    queryFn: ({ signal }) => findEmployee(employeeId, signal),
    retry: false,
  });

/** The employee passed along by the list (`initial`), else looked up by Employee ID. */
export function useEmployee(employeeId: string, initial: TEmployee | undefined) {
  return useQuery({
    ...findEmployeeQueryOptions(employeeId),
    enabled: employeeId !== "" && initial === undefined,
  });
}
