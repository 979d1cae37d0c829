import { describe, expect, it } from "vitest";

import {
  apiParamsFor,
  attachmentName,
  countLines,
  cursorFromParams,
  cursorsFromLink,
  filtersFromParams,
  paramsFor,
  ZAuditFilterFormSchema,
} from "../utils/audit-filters";
import { changedFields, targetText, valueText } from "../utils/audit-labels";

describe("audit log filters in the address bar", () => {
  it("reads filters and a cursor, leaving out blanks and unreadable cursors", () => {
    const params = new URLSearchParams("person=a%40b.example&action=&outcome=denied&before=12&after=x");
    expect(filtersFromParams(params)).toEqual({ person: "a@b.example", outcome: "denied" });
    expect(cursorFromParams(params)).toEqual({ before: 12 });
    expect(cursorFromParams(new URLSearchParams("after=7"))).toEqual({ after: 7 });
    expect(cursorFromParams(new URLSearchParams("before=-3"))).toBeUndefined();
    expect(paramsFor({ action: "client.updated", to: "2026-01-02" }, { after: 5 }).toString()).toBe(
      "action=client.updated&to=2026-01-02&after=5",
    );
  });

  it("sends local days to the API as instants, the last day included", () => {
    const params = apiParamsFor({ from: "2026-03-01", to: "2026-03-02" });
    expect(params.get("from")).toBe(new Date(2026, 2, 1).toISOString());
    expect(params.get("to")).toBe(new Date(2026, 2, 3).toISOString());
  });

  it("checks the form: an email or nothing, and an end not before the start", () => {
    const base = { person: "", action: "", outcome: "", from: "", to: "" };
    expect(ZAuditFilterFormSchema.safeParse(base).success).toBe(true);
    expect(ZAuditFilterFormSchema.safeParse({ ...base, person: "nobody" }).error?.issues[0]?.message).toBe(
      "Enter a valid email address.",
    );
    expect(
      ZAuditFilterFormSchema.safeParse({ ...base, from: "2026-03-02", to: "2026-03-01" }).error?.issues[0]
        ?.path,
    ).toEqual(["to"]);
  });
});

describe("audit log responses", () => {
  it("reads the neighbouring pages from the Link header", () => {
    expect(
      cursorsFromLink(
        '</api/admin/audit?action=a.b&before=40>; rel="next", </api/admin/audit?after=91>; rel="prev"',
      ),
    ).toEqual({ older: 40, newer: 91 });
    expect(cursorsFromLink(null)).toEqual({ older: null, newer: null });
  });

  it("names the download as the server does, and counts lines as they stream", () => {
    expect(attachmentName('attachment; filename="audit-log-2026-11-25.csv"', "x.csv")).toBe(
      "audit-log-2026-11-25.csv",
    );
    expect(attachmentName(null, "x.csv")).toBe("x.csv");
    expect(countLines(new TextEncoder().encode("id,action\n1,a\n2,b\n"))).toBe(3);
  });

  it("lists the fields an entry changed", () => {
    expect(changedFields({ a: 1, b: "x", c: [1] }, { a: 1, b: "y", d: true })).toEqual([
      { field: "b", before: "x", after: "y" },
      { field: "c", before: [1], after: undefined },
      { field: "d", before: undefined, after: true },
    ]);
    expect(changedFields(null, { a: 1 })).toBeNull();
    expect(valueText(undefined)).toBe("—");
    expect(valueText(["a"])).toBe('["a"]');
    expect(targetText({ target_type: "client", target_id: "7" })).toBe("client 7");
    expect(targetText({ target_type: null, target_id: null })).toBe("—");
  });
});
