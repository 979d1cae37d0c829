import { describe, expect, it } from "vitest";

import { listSearchParams, pageCount, pageFromParam, pageRangeText, readTotal } from "../paging";

describe("listSearchParams", () => {
  it("leaves out defaults and blank search text", () => {
    expect(listSearchParams({})).toBe("");
    expect(listSearchParams({ q: "   ", offset: 0, limit: 50 })).toBe("");
  });

  it("encodes search, offset, limit and sort", () => {
    expect(listSearchParams({ q: " oli ben ", offset: 50, limit: 20, sort: "-last_name" })).toBe(
      "?q=oli+ben&offset=50&limit=20&sort=-last_name",
    );
    expect(listSearchParams({ q: "a&b=c" })).toBe("?q=a%26b%3Dc");
  });
});

describe("readTotal", () => {
  it("reads X-Total-Count", () => {
    expect(readTotal("1204", 0, 50)).toBe(1204);
    expect(readTotal("0", 0, 0)).toBe(0);
  });

  it("counts what arrived when the header is missing, unreadable or too small", () => {
    expect(readTotal(null, 50, 7)).toBe(57);
    expect(readTotal("many", 0, 3)).toBe(3);
    expect(readTotal("-1", 0, 3)).toBe(3);
    expect(readTotal("2", 0, 3)).toBe(3);
  });
});

describe("pageRangeText", () => {
  it("says which rows of how many are shown", () => {
    expect(pageRangeText({ offset: 0, rows: 50, total: 1204 })).toBe("Showing 1–50 of 1,204");
    expect(pageRangeText({ offset: 1200, rows: 4, total: 1204 })).toBe("Showing 1,201–1,204 of 1,204");
    expect(pageRangeText({ offset: 0, rows: 0, total: 0 })).toBe("No results");
  });
});

describe("pageFromParam / pageCount", () => {
  it("reads 1-based pages and falls back to page 1", () => {
    expect(pageFromParam("3")).toBe(3);
    for (const bad of [null, "", "0", "-2", "1.5", "x"]) expect(pageFromParam(bad)).toBe(1);
  });

  it("has at least one page", () => {
    expect(pageCount(0, 50)).toBe(1);
    expect(pageCount(50, 50)).toBe(1);
    expect(pageCount(51, 50)).toBe(2);
  });
});
