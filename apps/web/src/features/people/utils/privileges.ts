import { PRIVILEGES } from "@portal/contracts";

/** The Privilege select: a prompt (blank, reported as a missing field), then Build, Analyze, Act, View. */
export const PRIVILEGE_OPTIONS: ReadonlyArray<{ value: string; label: string }> = [
  { value: "", label: "Select a privilege" },
  ...PRIVILEGES.map((privilege) => ({ value: privilege, label: privilege })),
];
