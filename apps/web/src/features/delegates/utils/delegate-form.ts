import { z } from "zod";

import { ZDelegateInviteRequestSchema } from "@portal/contracts";
import type { TDelegate, TDelegateChangeRequest, TDelegateInviteRequest } from "@portal/contracts";

/**
 * The invite and change forms (react-hook-form + zod). The end date is a day (`<input type="date">`), which the
 * API ends at the end of that day in UTC; the forms check it by the same rules first, in people's words.
 */

export const CHOOSE_A_WORKBOOK = "Choose at least one workbook, or share all of them.";
export const END_DATE_INVALID = "Enter the end date as a date, such as 31 March 2027.";
export const END_DATE_PAST = "The end date must be in the future.";
export const END_DATE_TOO_FAR = "The end date must be within ten years.";

const DAY_MS = 86_400_000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** When a day chosen as the end date ends: its last millisecond in UTC, as the API reads a date. */
export function endOfDay(day: string): Date {
  return new Date(`${day}T23:59:59.999Z`);
}

/** The end date's problem, if any: "" is no end date. */
export function endDateProblem(day: string, now = Date.now()): string | undefined {
  if (day === "") return undefined;
  const end = endOfDay(day);
  // A day such as 2027-02-30 is no date: Date rolls it over, so it must read back the same.
  if (!ISO_DAY.test(day) || Number.isNaN(end.getTime()) || end.toISOString().slice(0, 10) !== day) {
    return END_DATE_INVALID;
  }
  if (end.getTime() <= now) return END_DATE_PAST;
  if (end.getTime() >= now + 10 * 366 * DAY_MS) return END_DATE_TOO_FAR;
  return undefined;
}

/** The earliest day a date picker offers (today, in the person's own calendar). */
export function firstEndDay(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const accessShape = {
  /** "all": every workbook of the client, also those assigned later; "chosen": only `workbookIds`. */
  share: z.enum(["all", "chosen"]),
  workbookIds: z.array(z.number().int().positive()),
  endDate: z.string().trim(),
};

type TAccessValues = { share: "all" | "chosen"; workbookIds: number[]; endDate: string };

function checkAccess(values: TAccessValues, ctx: z.RefinementCtx) {
  if (values.share === "chosen" && values.workbookIds.length === 0) {
    ctx.addIssue({ code: "custom", path: ["workbookIds"], message: CHOOSE_A_WORKBOOK });
  }
  const problem = endDateProblem(values.endDate);
  if (problem) ctx.addIssue({ code: "custom", path: ["endDate"], message: problem });
}

/** "Change": what is shared and until when. */
export const ZDelegateAccessFormSchema = z.object(accessShape).superRefine(checkAccess);
export type TDelegateAccessForm = z.infer<typeof ZDelegateAccessFormSchema>;

/** "Invite someone": who, what is shared and until when. Name and email follow the API's own rules. */
export const ZDelegateInviteFormSchema = z
  .object({
    name: ZDelegateInviteRequestSchema.shape.name,
    email: ZDelegateInviteRequestSchema.shape.email,
    ...accessShape,
  })
  .superRefine(checkAccess);
export type TDelegateInviteFormInput = z.input<typeof ZDelegateInviteFormSchema>;
export type TDelegateInviteForm = z.output<typeof ZDelegateInviteFormSchema>;

const chosenIds = (values: TAccessValues) => [...new Set(values.workbookIds)].sort((a, b) => a - b);

/** POST body: no `workbookIds` shares all; no `expiresAt` has no end. */
export function inviteBody(values: TDelegateInviteForm): TDelegateInviteRequest {
  return {
    name: values.name,
    email: values.email,
    ...(values.share === "chosen" ? { workbookIds: chosenIds(values) } : {}),
    ...(values.endDate ? { expiresAt: values.endDate } : {}),
  };
}

/** PATCH body: `workbookIds: null` shares all; `expiresAt: null` removes the end date. */
export function changeBody(values: TDelegateAccessForm): TDelegateChangeRequest {
  return {
    workbookIds: values.share === "chosen" ? chosenIds(values) : null,
    expiresAt: values.endDate || null,
  };
}

/**
 * The forms' starting values: a new invitation shares all with no end; "Change" starts from what is, keeping
 * only the workbooks the client still has (`shareable`): the API refuses to share any other.
 */
export function accessDefaults(delegate?: TDelegate, shareable?: ReadonlyArray<number>): TAccessValues {
  if (!delegate) return { share: "all", workbookIds: [], endDate: "" };
  return {
    share: delegate.all_workbooks ? "all" : "chosen",
    workbookIds: delegate.workbook_ids.filter((id) => shareable === undefined || shareable.includes(id)),
    endDate: delegate.expires_at === null ? "" : new Date(delegate.expires_at).toISOString().slice(0, 10),
  };
}

export const inviteDefaults = (): TDelegateInviteFormInput => ({ name: "", email: "", ...accessDefaults() });
