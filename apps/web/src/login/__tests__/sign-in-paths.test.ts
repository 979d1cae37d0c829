import { expect, it } from "vitest";

import { SIGN_IN_PATHS, signInPathOf } from "@portal/contracts";

import { DEV_SIGN_IN_PATHS } from "../../../vite.config";

it("names the sign-in screens by path, with one trailing slash allowed", () => {
  expect(signInPathOf("/login")).toBe("/login");
  expect(signInPathOf("/admin-login/")).toBe("/admin-login");
  expect(signInPathOf("/reset-password")).toBe("/reset-password");
  for (const other of ["/", "/login.html", "/login/x", "/admin", "/terms", "//login", "/LOGIN"]) {
    expect(signInPathOf(other), other).toBeNull();
  }
});

it("the dev server sends the same paths to the sign-in page as the portal's server", () => {
  expect(DEV_SIGN_IN_PATHS).toEqual([...SIGN_IN_PATHS]);
});
