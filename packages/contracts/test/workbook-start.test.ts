import { describe, expect, it } from "vitest";

import { workbookStartPath } from "../src/workbook-start-path.ts";
import { ZWorkbookStartQuerySchema } from "../src/workbook-start.ts";

// The page's preload and the SPA's request must be the same request byte for byte (decision 024).
describe("workbookStartPath", () => {
  it.each([
    ["/", "", "/api/me/workbook-start"],
    ["/", "?client=12", "/api/me/workbook-start?client=12"],
    ["/", "?x=1&client=12&y", "/api/me/workbook-start?client=12"],
    ["/workbooks/Tax-Center-b1", "", "/api/me/workbook-start?workbook=Tax-Center-b1"],
    ["/workbooks/Tax-Center-b1/", "?client=7", "/api/me/workbook-start?workbook=Tax-Center-b1&client=7"],
    ["/workbooks/Caf%C3%A9-x", "", "/api/me/workbook-start?workbook=Caf%C3%A9-x"],
    ["/workbooks/A%26B%20C-x", "", "/api/me/workbook-start?workbook=A%26B+C-x"],
  ])("%s%s starts %s", (pathname, search, expected) => {
    expect(workbookStartPath(pathname, search)).toBe(expected);
  });

  it.each([
    ["/profile", ""],
    ["/admin", ""],
    ["/workbooks", ""],
    ["/workbooks/", ""],
    ["/workbooks/a/b", ""],
    ["/workbooks/%E0%A4%A", ""],
    ["/", "?client=abc"],
    ["/", "?client=0"],
    ["/", "?client=012"],
    ["/", "?client=2147483648"],
  ])("%s%s shows no workbook of its own: no start", (pathname, search) => {
    expect(workbookStartPath(pathname, search)).toBeNull();
  });

  it("builds what the API reads back as the same workbook and client", () => {
    const path = workbookStartPath("/workbooks/A%26B%20C-x", "?client=2147483647")!;
    const query = Object.fromEntries(new URL(path, "http://portal.test").searchParams);
    expect(ZWorkbookStartQuerySchema.parse(query)).toEqual({ workbook: "A&B C-x", client: 2147483647 });
  });
});
