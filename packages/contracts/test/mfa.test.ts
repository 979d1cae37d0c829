import { describe, expect, it } from "vitest";

import { requiresTwoFactor } from "../src/index.ts";

describe("requiresTwoFactor", () => {
  it("is true when the role (or one of a comma-separated list) is required", () => {
    expect(requiresTwoFactor("admin", ["admin"])).toBe(true);
    expect(requiresTwoFactor("client, admin", ["admin"])).toBe(true);
    expect(requiresTwoFactor("employee", ["admin", "employee"])).toBe(true);
  });

  it("is false for other roles, no role, and an empty policy", () => {
    expect(requiresTwoFactor("client", ["admin"])).toBe(false);
    expect(requiresTwoFactor(null, ["admin"])).toBe(false);
    expect(requiresTwoFactor(undefined, ["admin"])).toBe(false);
    expect(requiresTwoFactor("admin", [])).toBe(false);
  });
});
