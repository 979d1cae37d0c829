import type { TPersonKind } from "@portal/contracts";

/**
 * What the back office's other features know of the people screens (the people feature's `utils/kinds.ts`
 * has the rest and takes these from here): the kind's name in headings and links, its screens' addresses,
 * and the key of its cached lists, which a CSV import, a deleted workbook or a retried sync refreshes.
 */
export const PEOPLE_SCREENS = {
  client: {
    plural: "Clients",
    routes: {
      list: "/admin/client-list",
      add: "/admin/add-client",
      edit: "/admin/edit-client",
      import: "/admin/import?kind=client",
    },
  },
  employee: {
    plural: "Employees",
    routes: {
      list: "/admin/employee-list",
      add: "/admin/add-employee",
      edit: "/admin/edit-employee",
      import: "/admin/import?kind=employee",
    },
  },
} as const satisfies Record<
  TPersonKind,
  { plural: string; routes: { list: string; add: string; edit: string; import: string } }
>;

/** Every cached list of the kind starts with this key; changes to its people invalidate it. */
export const peopleQueryKey = (kind: TPersonKind) => ["admin", `${kind}s`] as const;
