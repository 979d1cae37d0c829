import { describe, expect, it } from "vitest";

import { isAdmin } from "../roles";

describe("isAdmin", () => {
  it("is true for the admin role, alone or in a list", () => {
    expect(isAdmin({ role: "admin" })).toBe(true);
    expect(isAdmin({ role: "author, admin" })).toBe(true);
  });

  it("is false for other roles, a missing role and no user", () => {
    expect(isAdmin({ role: "client" })).toBe(false);
    expect(isAdmin({ role: "administrator" })).toBe(false);
    expect(isAdmin({ role: null })).toBe(false);
    expect(isAdmin({})).toBe(false);
    expect(isAdmin(null)).toBe(false);
  });
});
