import { z } from "zod";

import { ZHouseholdInputSchema } from "@portal/contracts";
import type { TClient, THousehold, THouseholdInput } from "@portal/contracts";

import type { TOption } from "@/lib/multi-select";

export const CHOOSE_A_MEMBER = "Choose at least one client.";
export const TOO_MANY_MEMBERS = "A household can have at most 50 clients.";
export const COMBINED_VIEW_EXPLAINED = "Each member sees the accounts of every member of the household.";

/** A client as an option of the member picker: the name, with the client ID to tell two namesakes apart. */
export type TMemberOption = TOption & { detail: string };

export const clientOption = (client: Pick<TClient, "c_id" | "client_id" | "first_name" | "last_name">) =>
  memberOption({
    c_id: client.c_id,
    client_id: client.client_id,
    name: `${client.first_name} ${client.last_name}`,
  });

export const memberOption = (member: THousehold["members"][number]): TMemberOption => ({
  value: member.c_id,
  label: member.name,
  detail: member.client_id,
});

/** The household form (create and edit): its name follows the API's own rule. */
export const ZHouseholdFormSchema = z.object({
  name: ZHouseholdInputSchema.shape.name,
  members: z
    .array(z.object({ value: z.number().int().positive(), label: z.string(), detail: z.string() }))
    .min(1, CHOOSE_A_MEMBER)
    .max(50, TOO_MANY_MEMBERS),
  combinedView: z.boolean(),
});
export type THouseholdFormInput = z.input<typeof ZHouseholdFormSchema>;
export type THouseholdForm = z.output<typeof ZHouseholdFormSchema>;

/** A new household starts empty with the combined view off; an edit starts from the household as it is. */
export function householdDefaults(household?: THousehold): THouseholdFormInput {
  return {
    name: household?.name ?? "",
    members: household?.members.map(memberOption) ?? [],
    combinedView: household?.combinedView ?? false,
  };
}

/** POST and PUT body. */
export function householdBody(values: THouseholdForm): THouseholdInput {
  return {
    name: values.name,
    clientIds: values.members.map((member) => member.value),
    combinedView: values.combinedView,
  };
}

/** "Olivia Bennett, James Bennett", or that there is nobody. */
export function membersText(household: Pick<THousehold, "members">): string {
  if (household.members.length === 0) return "No members";
  return household.members.map((member) => member.name).join(", ");
}

/** "3 members" / "1 member". */
export function memberCount(household: Pick<THousehold, "members">): string {
  const count = household.members.length;
  return `${count} member${count === 1 ? "" : "s"}`;
}
