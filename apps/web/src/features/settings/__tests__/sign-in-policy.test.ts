import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import type { TSignInPolicy } from "@portal/contracts";

import {
  EMAIL_CODES,
  EMAIL_CODES_HELP,
  REQUIRE_TWO_STEP_FOR,
  SignInPolicyForm,
  signInPolicySavedText,
  withRole,
} from "../components/sign-in-policy-card";

describe("withRole", () => {
  it("adds and removes a role, each once, in the card's order", () => {
    expect(withRole([], "client", true)).toEqual(["client"]);
    expect(withRole(["client"], "employee", true)).toEqual(["employee", "client"]);
    expect(withRole(["employee", "client"], "employee", false)).toEqual(["client"]);
    expect(withRole(["employee"], "employee", true)).toEqual(["employee"]);
    expect(withRole(["employee"], "client", false)).toEqual(["employee"]);
  });
});

describe("signInPolicySavedText", () => {
  it("names everyone who must have a second step, admins always", () => {
    expect(signInPolicySavedText({ mfaRequiredRoles: [], emailCodes: false })).toBe(
      "✅ Saved. Two-step verification is required for admins. Codes by email are not offered.",
    );
    expect(signInPolicySavedText({ mfaRequiredRoles: ["client"], emailCodes: true })).toBe(
      "✅ Saved. Two-step verification is required for admins and clients. A code by email may be the second step.",
    );
    expect(signInPolicySavedText({ mfaRequiredRoles: ["employee", "client"], emailCodes: false })).toBe(
      "✅ Saved. Two-step verification is required for admins, employees and clients. Codes by email are not offered.",
    );
  });
});

function render(current: TSignInPolicy) {
  return renderToStaticMarkup(
    createElement(
      QueryClientProvider,
      { client: new QueryClient() },
      createElement(SignInPolicyForm, { current }),
    ),
  );
}

/** The checkbox of the label that reads `text` (the label wraps it). */
function checkbox(html: string, text: string): string {
  const label = new RegExp(`<label[^>]*>(<input[^>]*>)<span[^>]*>${text.replace(/[()]/g, "\\$&")}`).exec(
    html,
  );
  if (!label) throw new Error(`no checkbox labelled ${text}`);
  return label[1]!;
}

describe("SignInPolicyForm", () => {
  it("groups the roles under a legend described by its hint, admins checked and fixed", () => {
    const html = render({ mfaRequiredRoles: [], emailCodes: false });
    const hintId = /<fieldset aria-describedby="([^"]+)"/.exec(html)?.[1];
    expect(hintId).toBeTruthy();
    expect(html).toContain(
      `<legend class="text-sm font-medium text-navy-900">${REQUIRE_TWO_STEP_FOR}</legend>`,
    );
    expect(html).toContain(`<p id="${hintId}"`);
    const admins = checkbox(html, "Admins");
    expect(admins).toContain('checked=""');
    expect(admins).toContain('disabled=""');
    expect(html).toContain("(always)");
  });

  it("shows the saved roles as checked boxes and the email codes as a switch", () => {
    const off = render({ mfaRequiredRoles: [], emailCodes: false });
    expect(checkbox(off, "Employees")).not.toContain('checked=""');
    expect(checkbox(off, "Clients (and the people they invite)")).not.toContain('checked=""');
    expect(off).toContain('role="switch" aria-checked="false"');

    const on = render({ mfaRequiredRoles: ["employee", "client"], emailCodes: true });
    expect(checkbox(on, "Employees")).toContain('checked=""');
    expect(checkbox(on, "Employees")).not.toContain('disabled=""');
    expect(checkbox(on, "Clients (and the people they invite)")).toContain('checked=""');
    expect(on).toContain('role="switch" aria-checked="true"');
    expect(on).toContain(EMAIL_CODES);
    expect(on).toContain(EMAIL_CODES_HELP);
    expect(on).toContain(">Save sign-in security<");
  });
});
