import type { TViewableClient } from "@portal/contracts";

import { onFirstUse } from "@/lib/on-first-use";

const UNTIL = onFirstUse(() => new Intl.DateTimeFormat(undefined, { dateStyle: "long" }));

/** The switcher's line under a name: one's own workbooks, or a client's sharing and when it ends. */
export function clientNote(client: Pick<TViewableClient, "self" | "expires_at" | "workbooks">): string {
  const count = client.workbooks.length;
  const workbooks = `${count} ${count === 1 ? "workbook" : "workbooks"}`;
  if (client.self) return `Your own workbooks · ${workbooks}`;
  const ends = client.expires_at === null ? Number.NaN : Date.parse(client.expires_at);
  return Number.isNaN(ends)
    ? `Shared with you · ${workbooks}`
    : `Shared with you until ${UNTIL().format(ends)} · ${workbooks}`;
}
