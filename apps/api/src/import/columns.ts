import {
  IMPORT_FIELDS,
  IMPORT_OPTIONAL_FIELDS,
  type TImportField,
  type TPersonKind,
  type TImportMapping,
} from "@portal/contracts";

/** A header as compared: lower case, letters and digits only ("First name", "first_name", "FirstName" → "firstname"). */
export function headerKey(header: string): string {
  return header
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");
}

/** Common spellings of each field's column, as `headerKey` reads them. */
const SPELLINGS: Record<TImportField, string[]> = {
  clientId: [
    "clientid",
    "client",
    "clientnumber",
    "clientno",
    "clientref",
    "clientreference",
    "id",
    "businessid",
  ],
  employeeId: ["employeeid", "employee", "employeenumber", "employeeno", "staffid", "staffnumber", "id"],
  firstName: ["firstname", "first", "givenname", "forename", "fname"],
  lastName: ["lastname", "last", "surname", "familyname", "lname"],
  email: ["email", "emailaddress", "mail", "emailid"],
  password: ["password", "initialpassword", "temporarypassword", "pwd", "pass"],
  privilege: ["privilege", "privileges", "accesslevel", "access", "permission"],
  workbooks: ["workbooks", "workbook", "workbooknames", "assignedworkbooks", "workbookassignments"],
  clients: ["clients", "clientids", "assignedclients", "assignclients", "clientlist"],
};

/** The mapping suggested for a file's headers: each field to the first column spelt like it, none twice. */
export function suggestMapping(kind: TPersonKind, headers: string[]): TImportMapping {
  const keys = headers.map(headerKey);
  const taken = new Set<number>();
  const mapping: TImportMapping = {};
  for (const field of IMPORT_FIELDS[kind]) {
    for (const spelling of SPELLINGS[field]) {
      const index = keys.findIndex((key, i) => key === spelling && !taken.has(i));
      if (index >= 0) {
        mapping[field] = index;
        taken.add(index);
        break;
      }
    }
  }
  return mapping;
}

/** Required fields the mapping leaves out, and the mapping's own mistakes (a column used twice, out of range). */
export function mappingProblem(
  kind: TPersonKind,
  mapping: TImportMapping,
  columns: number,
): string | undefined {
  const fields = IMPORT_FIELDS[kind] as readonly string[];
  const foreign = Object.keys(mapping).filter((field) => !fields.includes(field));
  if (foreign.length > 0) return `These fields are not part of a ${kind}: ${foreign.join(", ")}.`;
  const indexes = Object.values(mapping);
  if (indexes.some((i) => i >= columns)) return "The mapping names a column the file does not have.";
  if (new Set(indexes).size !== indexes.length) return "Each column can be mapped to one field only.";
  return undefined;
}

export function missingFields(
  kind: TPersonKind,
  mapping: TImportMapping,
  /** Without a Password column everyone is invited (D55), when invitations can be mailed. */
  canInvite = false,
): TImportField[] {
  return IMPORT_FIELDS[kind].filter(
    (field) =>
      mapping[field] === undefined &&
      !IMPORT_OPTIONAL_FIELDS.includes(field) &&
      !(canInvite && field === "password"),
  );
}

/** A row's cells as field → text, through the mapping (an unmapped or missing cell is ""). */
export function mapRow(cells: string[], mapping: TImportMapping): Partial<Record<TImportField, string>> {
  const values: Partial<Record<TImportField, string>> = {};
  for (const [field, index] of Object.entries(mapping) as [TImportField, number][]) {
    values[field] = cells[index] ?? "";
  }
  return values;
}
