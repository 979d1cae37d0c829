import { describe, expect, it } from "vitest";

import type { TSession } from "@/lib/session";

import { accessRedirect } from "../access";
import type { TArea } from "../access";

function sessionWithRole(role: string | null): TSession {
  return { user: { role } } as unknown as TSession;
}

const anonymous = null;
const client = sessionWithRole("client");
const admin = sessionWithRole("admin");

/** Spec section 2, route table. */
const table: Array<[TArea, TSession | null, string | null]> = [
  ["user", anonymous, "/login"],
  ["user", client, null],
  ["user", admin, "/admin"],
  ["admin", anonymous, "/admin-login"],
  ["admin", client, "/admin-login"],
  ["admin", admin, null],
  ["login", anonymous, null],
  ["login", client, "/"],
  ["login", admin, "/admin"],
  ["admin-login", anonymous, null],
  ["admin-login", client, null],
  ["admin-login", admin, "/admin"],
];

describe("accessRedirect", () => {
  it.each(table)("%s area, session %o → %s", (area, session, expected) => {
    expect(accessRedirect(area, session)).toBe(expected);
  });

  it("treats a user without a readable role as a non-admin", () => {
    expect(accessRedirect("user", sessionWithRole(null))).toBeNull();
    expect(accessRedirect("admin", sessionWithRole(null))).toBe("/admin-login");
  });
});
