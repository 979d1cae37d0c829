import { describe, expect, it } from "vitest";

import { ALL_FIELDS_REQUIRED } from "@portal/contracts";

import { clientUi, employeeUi } from "../utils/kinds";
import { signInMethodResolver } from "../utils/sign-in-method";

// The people module's form schemas (`utils/kinds.ts`): with a password, and "Send an invitation" without.
const [ZAddClientFormSchema, ZAddClientInviteFormSchema] = [clientUi.forms.add, clientUi.forms.invite];
const [ZAddEmployeeFormSchema, ZAddEmployeeInviteFormSchema] = [
  employeeUi.forms.add,
  employeeUi.forms.invite,
];

const client = {
  clientId: " CL-3001 ",
  firstName: "Ada",
  lastName: "Lovelace",
  email: "Ada.Lovelace@Example.com",
  password: "",
  privilege: "Analyze",
};
const resolve = signInMethodResolver(ZAddClientFormSchema, ZAddClientInviteFormSchema);
const run = (values: Record<string, unknown>) =>
  resolve(values as never, undefined, { fields: {}, shouldUseNativeValidation: false });

describe("Add Client / Add Employee sign-in method (D55)", () => {
  it("sends an invitation without asking for a password, keeping the choice beside the values", async () => {
    const result = await run({ ...client, signInMethod: "invite" });
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({
      clientId: "CL-3001",
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada.lovelace@example.com",
      privilege: "Analyze",
      signInMethod: "invite",
    });
  });

  it("keeps the spec's rules when a password is set: blank is 'All fields are required.'", async () => {
    const blank = await run({ ...client, signInMethod: "password" });
    expect(blank.errors.password?.message).toBe(ALL_FIELDS_REQUIRED);
    const short = await run({ ...client, password: "short", signInMethod: "password" });
    expect(short.errors.password?.message).toBe("Password must be at least 8 characters.");
    const set = await run({ ...client, password: "analytical-engine", signInMethod: "password" });
    expect(set.values).toMatchObject({ password: "analytical-engine", signInMethod: "password" });
  });

  it("still reports the other blank fields with an invitation", async () => {
    const result = await run({ ...client, clientId: "", privilege: "", signInMethod: "invite" });
    expect(Object.keys(result.errors).sort()).toEqual(["clientId", "privilege"]);
  });

  it("works the same for employees", async () => {
    const employee = signInMethodResolver(ZAddEmployeeFormSchema, ZAddEmployeeInviteFormSchema);
    const values = {
      employeeId: "EM-3001",
      firstName: "Grace",
      lastName: "Hopper",
      email: "grace.hopper@example.com",
      password: "",
      privilege: "Act",
    };
    const options = { fields: {}, shouldUseNativeValidation: false } as const;
    expect(
      (await employee({ ...values, signInMethod: "invite" } as never, undefined, options)).errors,
    ).toEqual({});
    expect(
      (await employee({ ...values, signInMethod: "password" } as never, undefined, options)).errors.password
        ?.message,
    ).toBe(ALL_FIELDS_REQUIRED);
  });
});
