import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { DATE_AND_TIME } from "@/lib/relative-time";

import { StatusBadge } from "../components/delegate-list";
import {
  END_DATE,
  NO_END_DATE,
  NOT_VIEWED_YET,
  assignedNames,
  endDateText,
  lastViewedText,
  shareableWorkbooks,
  sharedText,
  workbookNames,
} from "../utils/delegate-text";
import { MY_DELEGATES, delegatesPath, delegatesQueryKey, mayHaveDelegates } from "../utils/owner";

const names = workbookNames([
  { id: 3, workbook_name: "Portfolio-Overview-4hT9" },
  { id: 9, workbook_name: "Tax-Summary-77aa" },
]);

describe("what is shared", () => {
  it("names the workbooks as people read them", () => {
    expect(names.get(3)).toBe("Portfolio Overview");
    expect(shareableWorkbooks(names)).toEqual([
      { id: 3, name: "Portfolio Overview" },
      { id: 9, name: "Tax Summary" },
    ]);
  });

  it("says all workbooks when all are shared", () => {
    expect(sharedText({ all_workbooks: true, workbook_ids: [] }, names)).toBe("All workbooks");
  });

  it("lists the chosen workbooks by name", () => {
    expect(sharedText({ all_workbooks: false, workbook_ids: [9, 3] }, names)).toBe(
      "Tax Summary, Portfolio Overview",
    );
  });

  it("only counts chosen workbooks the client no longer has", () => {
    expect(sharedText({ all_workbooks: false, workbook_ids: [3, 40] }, names)).toBe(
      "Portfolio Overview (and 1 workbook no longer available)",
    );
    expect(sharedText({ all_workbooks: false, workbook_ids: [40, 41] }, names)).toBe(
      "2 workbooks no longer available",
    );
    expect(sharedText({ all_workbooks: false, workbook_ids: [] }, names)).toBe("No workbooks");
  });

  it("names a client's workbooks from the catalogue, and those it did not name by number", () => {
    expect([...assignedNames([9, 15], names)]).toEqual([
      [9, "Tax Summary"],
      [15, "Workbook 15"],
    ]);
  });
});

describe("dates", () => {
  it("shows the end date as the day chosen, or that there is none", () => {
    expect(endDateText(null)).toBe(NO_END_DATE);
    expect(endDateText("2027-03-31T23:59:59.999Z")).toBe(END_DATE.format(new Date("2027-03-31T12:00:00Z")));
  });

  it("says when the delegate last looked", () => {
    const now = Date.parse("2026-11-27T12:00:00Z");
    const ago = (ms: number) => new Date(now - ms).toISOString();
    const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
    expect(lastViewedText(null, now)).toBe(NOT_VIEWED_YET);
    expect(lastViewedText(ago(30_000), now)).toBe("just now");
    expect(lastViewedText(ago(10 * 60_000), now)).toBe(relative.format(-10, "minute"));
    expect(lastViewedText(ago(5 * 3_600_000), now)).toBe(relative.format(-5, "hour"));
    expect(lastViewedText(ago(3 * 86_400_000), now)).toBe(
      DATE_AND_TIME.format(new Date(ago(3 * 86_400_000))),
    );
  });
});

describe("status", () => {
  it("is written out, with an icon, not told by colour alone", () => {
    const html = renderToStaticMarkup(createElement(StatusBadge, { status: "expired" }));
    expect(html).toContain("Expired");
    expect(html).toContain('<span class="sr-only">Status: </span>');
    expect(html).toMatch(/<svg[^>]*aria-hidden="true"/);
  });
});

describe("whose delegates", () => {
  it("are the signed-in client's own, or a client's in the back office", () => {
    expect(delegatesPath(MY_DELEGATES)).toBe("/api/me/delegates");
    expect(delegatesPath(MY_DELEGATES, 7)).toBe("/api/me/delegates/7");
    expect(delegatesPath({ kind: "client", cId: 12 })).toBe("/api/admin/clients/12/delegates");
    expect(delegatesPath({ kind: "client", cId: 12 }, 7)).toBe("/api/admin/clients/12/delegates/7");
    expect(delegatesQueryKey(MY_DELEGATES)).not.toEqual(delegatesQueryKey({ kind: "client", cId: 12 }));
  });
});

describe("who has delegates", () => {
  it("is a client only", () => {
    expect(mayHaveDelegates("client")).toBe(true);
    expect(mayHaveDelegates("delegate, client")).toBe(true);
    expect(mayHaveDelegates("employee")).toBe(false);
    expect(mayHaveDelegates("delegate")).toBe(false);
    expect(mayHaveDelegates("admin")).toBe(false);
    expect(mayHaveDelegates(null)).toBe(false);
    expect(mayHaveDelegates(undefined)).toBe(false);
  });
});
