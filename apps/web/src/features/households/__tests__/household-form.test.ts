import { describe, expect, it } from "vitest";

import { ALL_FIELDS_REQUIRED, ZHouseholdInputSchema } from "@portal/contracts";
import type { THousehold } from "@portal/contracts";

import {
  CHOOSE_A_MEMBER,
  TOO_MANY_MEMBERS,
  ZHouseholdFormSchema,
  clientOption,
  householdBody,
  householdDefaults,
  memberCount,
  membersText,
} from "../utils/household-form";

/** Field → first message, like react-hook-form's zod resolver reports them. */
function messages(result: { error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) out[String(issue.path[0])] ??= issue.message;
  return out;
}

const bennetts: THousehold = {
  id: 4,
  name: "Bennett family",
  combinedView: true,
  members: [
    { c_id: 1, client_id: "CL-1001", name: "Olivia Bennett" },
    { c_id: 2, client_id: "CL-1002", name: "James Bennett" },
  ],
};

const member = (c_id: number) => ({ value: c_id, label: `Client ${c_id}`, detail: `CL-${c_id}` });

describe("household form", () => {
  it("starts empty with the combined view off", () => {
    expect(householdDefaults()).toEqual({ name: "", members: [], combinedView: false });
  });

  it("starts an edit from the household as it is", () => {
    expect(householdDefaults(bennetts)).toEqual({
      name: "Bennett family",
      members: [
        { value: 1, label: "Olivia Bennett", detail: "CL-1001" },
        { value: 2, label: "James Bennett", detail: "CL-1002" },
      ],
      combinedView: true,
    });
  });

  it("needs a name and at least one client", () => {
    const found = messages(ZHouseholdFormSchema.safeParse(householdDefaults()));
    expect(found).toEqual({ name: ALL_FIELDS_REQUIRED, members: CHOOSE_A_MEMBER });
  });

  it("holds at most 50 clients, as the API does", () => {
    const members = Array.from({ length: 51 }, (_, index) => member(index + 1));
    const found = messages(ZHouseholdFormSchema.safeParse({ name: "Large", members, combinedView: false }));
    expect(found).toEqual({ members: TOO_MANY_MEMBERS });
  });

  it("sends the name, the members' client numbers and the combined view, as the API reads them", () => {
    const values = ZHouseholdFormSchema.parse({
      name: "  Reyes household ",
      members: [member(8), member(5)],
      combinedView: false,
    });
    const body = householdBody(values);
    expect(body).toEqual({ name: "Reyes household", clientIds: [8, 5], combinedView: false });
    expect(ZHouseholdInputSchema.safeParse(body).success).toBe(true);
  });

  it("offers a client by name, with the client ID beside it", () => {
    expect(clientOption({ c_id: 5, client_id: "CL-1005", first_name: "Ana", last_name: "Reyes" })).toEqual({
      value: 5,
      label: "Ana Reyes",
      detail: "CL-1005",
    });
  });
});

describe("household members", () => {
  it("are counted and named", () => {
    expect(memberCount(bennetts)).toBe("2 members");
    expect(memberCount({ members: [bennetts.members[0]!] })).toBe("1 member");
    expect(membersText(bennetts)).toBe("Olivia Bennett, James Bennett");
    expect(membersText({ members: [] })).toBe("No members");
  });
});
