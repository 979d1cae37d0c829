import type { QueryKey, UseQueryOptions } from "@tanstack/react-query";
import { z } from "zod";

import {
  PEOPLE,
  ZAddClientRequestSchema,
  ZAddClientResponseSchema,
  ZAddEmployeeRequestSchema,
  ZAddEmployeeResponseSchema,
  ZClientSchema,
  ZEditClientRequestSchema,
  ZEditEmployeeRequestSchema,
  ZEmployeeSchema,
  ZPrivilegeSchema,
  workbookLabel,
} from "@portal/contracts";
import type { TClient, TEmployee, TWorkbook } from "@portal/contracts";

import { LOAD_WORKBOOKS_FAILED, workbooksListQuery } from "@/lib/get-workbooks";
import type { TListPage } from "@/lib/paging";
import { PEOPLE_SCREENS } from "@/lib/people-screens";

import { peopleListQuery } from "../api/people";
import type { TAssignableQuery, TAssignedOption, TPersonUi } from "./person-ui";
import { fullName, namesOrNone } from "./people";

/**
 * The web's one table of what differs between clients and employees (issue 13): their words on every
 * screen, what each is assigned (workbooks to a client, clients to an employee: the assignment picker's
 * list) and the parts of Edit Client and Edit Employee that only one kind has (their components are in
 * `components/person-parts.tsx`). The lists, Add, Edit, the picker, their calls and every person action are
 * written once (`components/person-list-page.tsx`, `add-person-page.tsx`, `edit-person-page.tsx`,
 * `assignment-picker.tsx`, `api/people.ts`).
 */

/**
 * A list's query whose rows the picker reads as options (`select`): the row type stays in here, so both kinds'
 * pickers have one type. The cached page stays the list's own, shared with the list's other readers.
 */
function asOptions<T, K extends QueryKey>(
  query: UseQueryOptions<TListPage<T>, Error, TListPage<T>, K>,
  toOption: (row: T) => TAssignedOption,
): TAssignableQuery {
  const select = (page: TListPage<T>): TListPage<TAssignedOption> => ({
    ...page,
    rows: page.rows.map(toOption),
  });
  return { ...query, select } as unknown as TAssignableQuery;
}

/** A workbook as an option: the team goes along, which the Add Client payload lists as `teams`. */
const toWorkbookOption = (workbook: TWorkbook): TAssignedOption & { team: string } => ({
  value: workbook.id,
  label: workbookLabel(workbook.workbook_name),
  detail: `${workbook.team_name} · ${workbook.workbook_name}`,
  team: workbook.team_name,
});

const toClientOption = (client: TClient): TAssignedOption => ({
  value: client.c_id,
  label: fullName(client),
  detail: `${client.client_id} · ${client.email}`,
});

/** The form fields of Add and Edit, by the names their schemas give them. */
const addFields = { firstName: true, lastName: true, email: true, password: true } as const;
const editFields = { firstName: true, lastName: true } as const;
// The privilege select starts empty (""), which the privilege rule reports as a missing field.
const privilegeField = { privilege: z.string().pipe(ZPrivilegeSchema) };

export const clientUi: TPersonUi<TClient> = {
  kind: "client",
  words: PEOPLE.client,
  schemas: { row: ZClientSchema, addResponse: ZAddClientResponseSchema },
  idOf: (client) => client.c_id,
  businessIdOf: (client) => client.client_id,
  routes: PEOPLE_SCREENS.client.routes,
  text: {
    plural: PEOPLE_SCREENS.client.plural,
    one: "client",
    listDescription: "Everyone the firm advises, their sign-in email and the advisors assigned to them.",
    searchPlaceholder: "Search by client ID, name or email",
    loadListFailed: "Failed to load clients.",
    deleteConsequence: ", with their workbook and advisor assignments. This cannot be undone.",
    deleteFailed: "The client could not be deleted.",
    addDescription: "Registers the client, creates their sign-in and assigns the workbooks they will see.",
    identityDescription: "How the firm identifies the client.",
    signInDescription: "The client signs in at the portal with these.",
    emailLabel: "Email",
    passwordHint: "At least 8 characters. Share it with the client securely.",
    accessDescription: "What the client may do and see in the workbooks.",
    addFailed: "The client could not be registered.",
    registeredNotice: "✅ Client registered successfully!",
    editDescription:
      "Change the client's ID or name. Sign-in details, privilege and workbooks stay as registered.",
    readOnlyTitle: "Sign-in and access",
    updateFailed: "Update failed",
    notFound: "This client no longer exists. It may have been deleted.",
  },
  assigned: { header: "Assigned Employees", cell: (client) => namesOrNone(client.employees) },
  assign: {
    label: "Workbooks (optional)",
    noun: "workbook",
    hint: "The client sees these workbooks after signing in. You can leave this empty.",
    loadFailed: LOAD_WORKBOOKS_FAILED,
    noneYet: "No workbooks found.",
    query: ({ q, limit }) =>
      asOptions(workbooksListQuery({ q, limit, sort: "workbook_name" }), toWorkbookOption),
  },
  forms: {
    add: ZAddClientRequestSchema.pick({ clientId: true, ...addFields }).extend(privilegeField),
    invite: ZAddClientRequestSchema.pick({ clientId: true, ...addFields })
      .omit({ password: true })
      .extend(privilegeField),
    // Privilege, email, password and workbooks are read-only on Edit Client.
    edit: ZEditClientRequestSchema.pick({ clientId: true, ...editFields }),
  },
  addAssigned: (picked) => ({
    workbookIds: picked.map((workbook) => workbook.value),
    // Spec payload; the server derives the teams itself (DEVIATION D17).
    teams: [...new Set(picked.map((workbook) => workbook.team ?? ""))],
  }),
  editDefaults: (client) => ({
    clientId: client.client_id,
    firstName: client.first_name,
    lastName: client.last_name,
  }),
  editAssigned: () => null,
  // Privilege is read-only here; the stored value goes back unchanged (DEVIATION D16).
  editBody: (client, values) => ({ cId: client.c_id, ...values, privilege: client.privilege }),
};

const toClientOptions = (employee: TEmployee): TAssignedOption[] =>
  employee.clients.map((client) => ({ value: client.c_id, label: fullName(client) }));

export const employeeUi: TPersonUi<TEmployee> = {
  kind: "employee",
  words: PEOPLE.employee,
  schemas: { row: ZEmployeeSchema, addResponse: ZAddEmployeeResponseSchema },
  idOf: (employee) => employee.e_id,
  businessIdOf: (employee) => employee.employee_id,
  routes: PEOPLE_SCREENS.employee.routes,
  text: {
    plural: PEOPLE_SCREENS.employee.plural,
    one: "employee",
    listDescription: "The firm's advisors, their sign-in email and the clients each one looks after.",
    searchPlaceholder: "Search by employee ID, name or email",
    loadListFailed: "Failed to load employees.",
    deleteConsequence: " and is unassigned from their clients. This cannot be undone.",
    deleteFailed: "The employee could not be deleted.",
    addDescription: "Registers an advisor, creates their sign-in and assigns the clients they look after.",
    identityDescription: "How the firm identifies the employee.",
    signInDescription: "The employee signs in at the portal with these.",
    emailLabel: "Email Address",
    passwordHint: "At least 8 characters. Share it with the employee securely.",
    accessDescription: "What the employee may do, and for which clients.",
    addFailed: "The employee could not be registered.",
    registeredNotice: "Employee registered successfully!",
    editDescription:
      "Change the employee's ID, name, privilege and clients. Sign-in details stay as registered.",
    readOnlyTitle: "Sign-in",
    updateFailed: "The employee could not be updated.",
    notFound: "This employee no longer exists. It may have been deleted.",
  },
  assigned: { header: "Assigned Clients", cell: (employee) => namesOrNone(employee.clients) },
  assign: {
    label: "Assign Clients",
    noun: "client",
    hint: "The employee sees the workbooks of the clients assigned here.",
    loadFailed: "Failed to load clients.",
    noneYet: "No clients yet.",
    query: ({ q, limit }) =>
      asOptions(peopleListQuery(clientUi, { q, limit, sort: "last_name" }), toClientOption),
  },
  forms: {
    add: ZAddEmployeeRequestSchema.pick({ employeeId: true, ...addFields }).extend(privilegeField),
    invite: ZAddEmployeeRequestSchema.pick({ employeeId: true, ...addFields })
      .omit({ password: true })
      .extend(privilegeField),
    // The assigned clients come from the multi-select.
    edit: ZEditEmployeeRequestSchema.pick({ employeeId: true, ...editFields }).extend(privilegeField),
  },
  addAssigned: (picked) => ({ clientIds: picked.map((client) => client.value) }),
  editDefaults: (employee) => ({
    employeeId: employee.employee_id,
    firstName: employee.first_name,
    lastName: employee.last_name,
    privilege: employee.privilege,
  }),
  editAssigned: toClientOptions,
  editBody: (employee, values, picked) => ({
    eId: employee.e_id,
    ...values,
    clientIds: picked.map((client) => client.value),
  }),
};
