import { createElement } from "react";
import type { ComponentProps } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";

import { AppRequestError } from "@/lib/errors";
import { ALL_FIELDS_REQUIRED, saveState } from "@/lib/form-errors";

import { SubmitFooter } from "../form-layout";

const FAILED = "The client could not be registered.";
const idle = { isPending: false, isSuccess: false, isError: false, error: null };

describe("saveState", () => {
  it("is idle before the form is sent", () => {
    expect(saveState(idle, FAILED)).toEqual({ pending: false, done: false, error: undefined });
  });

  it("is pending while the request runs, and done once it succeeded", () => {
    expect(saveState({ ...idle, isPending: true }, FAILED)).toMatchObject({ pending: true, done: false });
    expect(saveState({ ...idle, isSuccess: true }, FAILED)).toMatchObject({ pending: false, done: true });
  });

  it("shows the server's message of a failure, else the screen's fallback", () => {
    const refused = new AppRequestError("Client ID already exists", { status: 409 });
    expect(saveState({ ...idle, isError: true, error: refused }, FAILED).error).toBe(
      "Client ID already exists",
    );
    expect(saveState({ ...idle, isError: true, error: new TypeError("offline") }, FAILED).error).toBe(FAILED);
  });
});

function render(props: Partial<ComponentProps<typeof SubmitFooter>> = {}) {
  return renderToStaticMarkup(
    createElement(
      MemoryRouter,
      null,
      createElement(SubmitFooter, {
        cancelTo: "/admin/client-list",
        submitLabel: "Register Client",
        pendingLabel: "Registering...",
        pending: false,
        done: false,
        missingFields: false,
        error: undefined,
        ...props,
      }),
    ),
  );
}

describe("SubmitFooter", () => {
  it("offers Cancel back to the list and the submit button", () => {
    const html = render();
    expect(html).toContain('href="/admin/client-list"');
    expect(html).toContain(">Cancel</a>");
    expect(html).toContain("Register Client");
    expect(html).not.toContain(ALL_FIELDS_REQUIRED);
  });

  it("says 'All fields are required.', the failure and the success, in that order", () => {
    const html = render({ missingFields: true, error: FAILED, success: "Client updated successfully!" });
    const missing = html.indexOf(ALL_FIELDS_REQUIRED);
    const failed = html.indexOf(FAILED);
    const success = html.indexOf("Client updated successfully!");
    expect(missing).toBeGreaterThan(-1);
    expect(failed).toBeGreaterThan(missing);
    expect(success).toBeGreaterThan(failed);
  });

  it("shows the busy text while pending and keeps the button disabled once done", () => {
    expect(render({ pending: true })).toContain("Registering...");
    expect(render({ done: true })).toMatch(/<button[^>]*disabled=""/);
  });
});
