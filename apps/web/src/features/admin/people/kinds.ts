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
} from "@portal/contracts";
import type { TClient, TEmployee, TPersonKind } from "@portal/contracts";

import type { TOption } from "../utils/multi-select";
import { fullName, namesOrNone } from "../utils/people";

/**
 * The web's one table of what differs between clients and employees (issue 13): their words on every
 * screen, what each is assigned (workbooks to a client, clients to an employee) and the parts of Edit Client
 * and Edit Employee that only one kind has (their components are in `parts.tsx`). The lists, Add, Edit, their calls and every person action are
 * written once (`person-list-page.tsx`, `add-person-page.tsx`, `edit-person-page.tsx`, `api.ts`).
 */

/** What every list row has, whichever the kind. */
export type TPersonRow = TClient | TEmployee;

/** What is picked on Add (and on Edit Employee): a client's workbooks carry their team. */
export type TAssignedOption = TOption & { team?: string };

/** The form fields of Add and Edit, by the names their schemas give them. */
const addFields = { firstName: true, lastName: true, email: true, password: true } as const;
const editFields = { firstName: true, lastName: true } as const;
// The privilege select starts empty (""), which the privilege rule reports as a missing field.
const privilegeField = { privilege: z.string().pipe(ZPrivilegeSchema) };

/** A form's schema: the fields as typed (strings) to the values sent. */
type TFormSchema = z.ZodType<Record<string, unknown>, Record<string, string>>;

export interface TPersonUi<R extends TPersonRow = TPersonRow> {
  kind: TPersonKind;
  /** The API's paths and the kind's words (contracts `PEOPLE`). */
  words: (typeof PEOPLE)[TPersonKind];
  schemas: {
    row: z.ZodType<R>;
    addResponse: z.ZodType<{ message: string; data: { embed: { embedUrl: string | null } } }>;
  };
  idOf(row: R): number;
  businessIdOf(row: R): string;
  routes: { list: string; add: string; edit: string; import: string };
  text: {
    /** "Clients": the list's title, caption and crumb. */
    plural: string;
    /** "client", in sentences. */
    one: string;
    listDescription: string;
    searchPlaceholder: string;
    loadListFailed: string;
    /** The rest of the delete warning, after "<Name> (<ID>) loses access to the portal at once". */
    deleteConsequence: string;
    deleteFailed: string;
    addDescription: string;
    identityDescription: string;
    signInDescription: string;
    emailLabel: string;
    passwordHint: string;
    accessDescription: string;
    addFailed: string;
    /** The list's notice once Sigma has registered the new person (spec §8's words for each kind). */
    registeredNotice: string;
    editDescription: string;
    readOnlyTitle: string;
    updateFailed: string;
    notFound: string;
  };
  /** The list's column of who or what the person is assigned. */
  assigned: { header: string; cell: (row: R) => string };
  forms: {
    /** Add with a password; `invite` without one ("Send an invitation", D55). */
    add: TFormSchema;
    invite: TFormSchema;
    /** The editable fields of Edit. */
    edit: TFormSchema;
  };
  /** What is picked on Add, as the add body's fields. */
  addAssigned: (picked: ReadonlyArray<TAssignedOption>) => object;
  /** Edit: the form's starting values, what it assigns (null: nothing to pick), and the body it sends. */
  editDefaults: (row: R) => Record<string, string>;
  editAssigned: (row: R) => TAssignedOption[] | null;
  editBody: (row: R, values: Record<string, unknown>, picked: ReadonlyArray<TAssignedOption>) => object;
}

export const clientUi: TPersonUi<TClient> = {
  kind: "client",
  words: PEOPLE.client,
  schemas: { row: ZClientSchema, addResponse: ZAddClientResponseSchema },
  idOf: (client) => client.c_id,
  businessIdOf: (client) => client.client_id,
  routes: {
    list: "/admin/client-list",
    add: "/admin/add-client",
    edit: "/admin/edit-client",
    import: "/admin/import?kind=client",
  },
  text: {
    plural: "Clients",
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
  routes: {
    list: "/admin/employee-list",
    add: "/admin/add-employee",
    edit: "/admin/edit-employee",
    import: "/admin/import?kind=employee",
  },
  text: {
    plural: "Employees",
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

/** Both kinds, by name. */
export const PERSON_UI: { client: TPersonUi<TClient>; employee: TPersonUi<TEmployee> } = {
  client: clientUi,
  employee: employeeUi,
};
