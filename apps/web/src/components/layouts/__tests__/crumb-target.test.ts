import { describe, expect, it } from "vitest";

import { crumbTarget } from "../breadcrumbs";

describe("crumbTarget (a breadcrumb link)", () => {
  it("leads to the route's path when it keeps nothing", () => {
    expect(crumbTarget("/admin", "?q=smith&page=2", undefined)).toBe("/admin");
  });

  it("keeps only the named parameters of the current address", () => {
    expect(crumbTarget("/", "?client=12&other=1", ["client"])).toBe("/?client=12");
    expect(crumbTarget("/", "", ["client"])).toBe("/");
    expect(crumbTarget("/", "?other=1", ["client"])).toBe("/");
  });
});
