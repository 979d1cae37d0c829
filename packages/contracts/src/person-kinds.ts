// Apart from the people's schemas (`people.ts`), without zod: the workbook catalogue's schemas (`admin.ts`) name
// the kinds too, and a page that shows workbooks need not build every people form to read them (decision 024).

/** The kinds of person: `{kind}` of `/api/admin/invitations/{kind}/{id}` and of a CSV import. */
export const PERSON_KINDS = ["client", "employee"] as const;
export type TPersonKind = (typeof PERSON_KINDS)[number];
