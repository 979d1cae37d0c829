import { describe, expect, it } from "vitest";

import { ALL_FIELDS_REQUIRED } from "@portal/contracts";

import { ZWorkbookFormSchema } from "../api/add-workbook";

/** Field → first message, like react-hook-form's zod resolver reports them. */
function messages(result: {
  success: boolean;
  error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
}) {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) out[String(issue.path[0])] ??= issue.message;
  return out;
}

describe("Workbook form", () => {
  it("requires both fields", () => {
    const found = messages(ZWorkbookFormSchema.safeParse({ workbook_name: "", team_name: "" }));
    expect(found).toEqual({ workbook_name: ALL_FIELDS_REQUIRED, team_name: ALL_FIELDS_REQUIRED });
  });

  it("wants the Sigma URL name", () => {
    const found = messages(
      ZWorkbookFormSchema.safeParse({ workbook_name: "Quarterly Review", team_name: "T" }),
    );
    expect(found.workbook_name).toMatch(/Sigma URL name/);
    expect(
      ZWorkbookFormSchema.safeParse({
        workbook_name: "Quarterly-Review-abcdefghijklmnopqrstuv",
        team_name: "T",
      }).success,
    ).toBe(true);
  });
});
