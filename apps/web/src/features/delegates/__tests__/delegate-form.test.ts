import { describe, expect, it } from "vitest";

import {
  ALL_FIELDS_REQUIRED,
  ZDelegateChangeRequestSchema,
  ZDelegateInviteRequestSchema,
} from "@portal/contracts";
import type { TDelegate } from "@portal/contracts";

import {
  CHOOSE_A_WORKBOOK,
  END_DATE_INVALID,
  END_DATE_PAST,
  END_DATE_TOO_FAR,
  ZDelegateAccessFormSchema,
  ZDelegateInviteFormSchema,
  accessDefaults,
  changeBody,
  endDateProblem,
  firstEndDay,
  inviteBody,
  inviteDefaults,
} from "../utils/delegate-form";

/** Field → first message, like react-hook-form's zod resolver reports them. */
function messages(result: { error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) out[String(issue.path[0])] ??= issue.message;
  return out;
}

const DAY_MS = 86_400_000;
/** The day `days` from now, as a date input gives it (yyyy-mm-dd, UTC). */
const dayFromNow = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

const complete = {
  name: " Daniel Reyes ",
  email: "Daniel.Reyes@Example.com",
  share: "all" as const,
  workbookIds: [],
  endDate: "",
};

const delegate: TDelegate = {
  id: 7,
  name: "Daniel Reyes",
  email: "daniel.reyes@example.com",
  status: "active",
  all_workbooks: false,
  workbook_ids: [3, 9, 12],
  expires_at: "2027-03-31T23:59:59.999Z",
  invited_at: "2026-11-01T10:00:00.000Z",
  accepted_at: "2026-11-02T10:00:00.000Z",
  last_viewed_at: null,
};

describe("invite form", () => {
  it("starts sharing all workbooks with no end date", () => {
    expect(inviteDefaults()).toEqual({ name: "", email: "", share: "all", workbookIds: [], endDate: "" });
  });

  it("reports a blank name and email as required, like the API", () => {
    const found = messages(ZDelegateInviteFormSchema.safeParse({ ...complete, name: "  ", email: "" }));
    expect(found).toEqual({ name: ALL_FIELDS_REQUIRED, email: ALL_FIELDS_REQUIRED });
  });

  it("refuses an address that is not one", () => {
    const found = messages(ZDelegateInviteFormSchema.safeParse({ ...complete, email: "daniel@" }));
    expect(found.email).toBe("Enter a valid email address.");
  });

  it("asks for a workbook when only chosen ones are shared and none is ticked", () => {
    const found = messages(ZDelegateInviteFormSchema.safeParse({ ...complete, share: "chosen" }));
    expect(found).toEqual({ workbookIds: CHOOSE_A_WORKBOOK });
  });

  it("sends no workbookIds when all are shared and no expiresAt without an end date", () => {
    const body = inviteBody(ZDelegateInviteFormSchema.parse(complete));
    expect(body).toEqual({ name: "Daniel Reyes", email: "daniel.reyes@example.com" });
    expect(ZDelegateInviteRequestSchema.safeParse(body).success).toBe(true);
  });

  it("sends the chosen workbooks once each, in order, and the end date as the day chosen", () => {
    const endDate = dayFromNow(30);
    const values = ZDelegateInviteFormSchema.parse({
      ...complete,
      share: "chosen",
      workbookIds: [9, 3, 9],
      endDate,
    });
    const body = inviteBody(values);
    expect(body).toEqual({
      name: "Daniel Reyes",
      email: "daniel.reyes@example.com",
      workbookIds: [3, 9],
      expiresAt: endDate,
    });
    expect(ZDelegateInviteRequestSchema.safeParse(body).success).toBe(true);
  });

  it("drops the ticked workbooks once all are shared again", () => {
    const values = ZDelegateInviteFormSchema.parse({ ...complete, workbookIds: [3] });
    expect(inviteBody(values)).not.toHaveProperty("workbookIds");
  });
});

describe("end date", () => {
  const now = Date.parse("2026-11-27T12:00:00Z");

  it("may be left empty", () => {
    expect(endDateProblem("", now)).toBeUndefined();
  });

  it("ends at the end of the day chosen, so today still counts", () => {
    expect(endDateProblem("2026-11-27", now)).toBeUndefined();
    expect(endDateProblem("2026-11-26", now)).toBe(END_DATE_PAST);
  });

  it("must be within ten years", () => {
    expect(endDateProblem("2036-11-01", now)).toBeUndefined();
    expect(endDateProblem("2037-01-01", now)).toBe(END_DATE_TOO_FAR);
  });

  it("must be a real day", () => {
    expect(endDateProblem("2027-02-30", now)).toBe(END_DATE_INVALID);
    expect(endDateProblem("31/03/2027", now)).toBe(END_DATE_INVALID);
    expect(endDateProblem("soon", now)).toBe(END_DATE_INVALID);
  });

  it("is reported under the field by both forms", () => {
    const past = dayFromNow(-2);
    expect(messages(ZDelegateInviteFormSchema.safeParse({ ...complete, endDate: past })).endDate).toBe(
      END_DATE_PAST,
    );
    expect(
      messages(ZDelegateAccessFormSchema.safeParse({ ...accessDefaults(), endDate: past })).endDate,
    ).toBe(END_DATE_PAST);
  });

  it("offers today as the first day of the picker, in the person's own calendar", () => {
    expect(firstEndDay(new Date(2026, 0, 5, 23, 30))).toBe("2026-01-05");
  });
});

describe("change form", () => {
  it("starts from what is shared and the end day in UTC", () => {
    expect(accessDefaults(delegate)).toEqual({
      share: "chosen",
      workbookIds: [3, 9, 12],
      endDate: "2027-03-31",
    });
    expect(accessDefaults({ ...delegate, all_workbooks: true, workbook_ids: [], expires_at: null })).toEqual({
      share: "all",
      workbookIds: [],
      endDate: "",
    });
  });

  it("keeps only the workbooks the client still has", () => {
    expect(accessDefaults(delegate, [3, 12, 40]).workbookIds).toEqual([3, 12]);
  });

  it("sends null to share all and null to remove the end date", () => {
    const body = changeBody(ZDelegateAccessFormSchema.parse({ share: "all", workbookIds: [3], endDate: "" }));
    expect(body).toEqual({ workbookIds: null, expiresAt: null });
    expect(ZDelegateChangeRequestSchema.safeParse(body).success).toBe(true);
  });

  it("sends the chosen workbooks and the new end day", () => {
    const endDate = dayFromNow(90);
    const body = changeBody(
      ZDelegateAccessFormSchema.parse({ share: "chosen", workbookIds: [12, 3], endDate }),
    );
    expect(body).toEqual({ workbookIds: [3, 12], expiresAt: endDate });
    expect(ZDelegateChangeRequestSchema.safeParse(body).success).toBe(true);
  });
});
