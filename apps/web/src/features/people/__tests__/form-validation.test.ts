import { describe, expect, it } from "vitest";

import { ALL_FIELDS_REQUIRED } from "@portal/contracts";

import { clientUi, employeeUi } from "../utils/kinds";

/** Field → first message, like react-hook-form's zod resolver reports them. */
function messages(result: {
  success: boolean;
  error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
}) {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) out[String(issue.path[0])] ??= issue.message;
  return out;
}

// The people module's form schemas (`utils/kinds.ts`), one set per kind.
const ZAddClientFormSchema = clientUi.forms.add;
const ZAddEmployeeFormSchema = employeeUi.forms.add;
const ZEditClientFormSchema = clientUi.forms.edit;
const ZEditEmployeeFormSchema = employeeUi.forms.edit;

const emptyClient = { clientId: "", firstName: "", lastName: "", email: "", password: "", privilege: "" };

describe("Add Client form", () => {
  it("reports every blank field, privilege included, as 'All fields are required.'", () => {
    const found = messages(ZAddClientFormSchema.safeParse(emptyClient));
    expect(found).toEqual({
      clientId: ALL_FIELDS_REQUIRED,
      firstName: ALL_FIELDS_REQUIRED,
      lastName: ALL_FIELDS_REQUIRED,
      email: ALL_FIELDS_REQUIRED,
      password: ALL_FIELDS_REQUIRED,
      privilege: ALL_FIELDS_REQUIRED,
    });
  });

  it("treats whitespace as blank", () => {
    const found = messages(ZAddClientFormSchema.safeParse({ ...emptyClient, clientId: "   " }));
    expect(found.clientId).toBe(ALL_FIELDS_REQUIRED);
  });

  it("accepts a complete client and normalises it like the server", () => {
    const parsed = ZAddClientFormSchema.parse({
      clientId: " CL-2001 ",
      firstName: "Ada",
      lastName: "Lovelace",
      email: "Ada.Lovelace@Example.com",
      password: "analytical-engine",
      privilege: "Analyze",
    });
    expect(parsed).toEqual({
      clientId: "CL-2001",
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada.lovelace@example.com",
      password: "analytical-engine",
      privilege: "Analyze",
    });
  });

  it("explains other problems in their own words", () => {
    const found = messages(
      ZAddClientFormSchema.safeParse({
        clientId: "CL 1",
        firstName: "A",
        lastName: "B",
        email: "not-an-email",
        password: "short",
        privilege: "Admin",
      }),
    );
    expect(found.clientId).toMatch(/letters, digits/);
    expect(found.email).toBe("Enter a valid email address.");
    expect(found.password).toBe("Password must be at least 8 characters.");
    expect(found.privilege).toBe("Privilege must be one of Build, Analyze, Act, View.");
  });
});

describe("Add Employee form", () => {
  it("requires employee ID, names, email, password and privilege", () => {
    const found = messages(
      ZAddEmployeeFormSchema.safeParse({
        employeeId: "",
        firstName: "",
        lastName: "",
        email: "",
        password: "",
        privilege: "",
      }),
    );
    expect(Object.keys(found).sort()).toEqual(
      ["email", "employeeId", "firstName", "lastName", "password", "privilege"].sort(),
    );
    expect(new Set(Object.values(found))).toEqual(new Set([ALL_FIELDS_REQUIRED]));
  });
});

describe("Edit forms", () => {
  it("Edit Client requires Client ID, first and last name", () => {
    const found = messages(
      ZEditClientFormSchema.safeParse({ clientId: "CL-1", firstName: "", lastName: " " }),
    );
    expect(found).toEqual({ firstName: ALL_FIELDS_REQUIRED, lastName: ALL_FIELDS_REQUIRED });
  });

  it("Edit Employee also requires a privilege", () => {
    const found = messages(
      ZEditEmployeeFormSchema.safeParse({ employeeId: "EM-1", firstName: "A", lastName: "B", privilege: "" }),
    );
    expect(found).toEqual({ privilege: ALL_FIELDS_REQUIRED });
  });
});
