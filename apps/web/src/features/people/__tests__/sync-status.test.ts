import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { AppRequestError } from "@/lib/errors";

import { SyncStatus } from "../components/sync-status";
import {
  PENDING_SYNC_POLL_MS,
  SYNC_RETRY_FAILED,
  pendingSyncPollInterval,
  retryStateOf,
  syncView,
} from "../utils/sync-status";
import type { TSyncRetry, TSyncStatus } from "../utils/sync-status";

const idle: TSyncRetry = { retrying: false, retried: undefined, retryError: undefined };
const REASON = "Sigma API 409 conflict: A team with this name already exists.";

function render(
  status: TSyncStatus,
  options: { retry?: Partial<TSyncRetry>; error?: string | null; variant?: "detail" | "compact" } = {},
) {
  const html = renderToStaticMarkup(
    createElement(SyncStatus, {
      status,
      error: options.error === undefined ? REASON : options.error,
      onRetry: () => undefined,
      retry: { ...idle, ...options.retry },
      variant: options.variant ?? "compact",
      // The lists name whose sync a Retry is for; an edit screen is about one person.
      subject: options.variant === "detail" ? undefined : "client CL-1001",
    }),
  );
  // What a reader sees or hears: the markup's text, and the attributes that carry meaning.
  const text = html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
  return { html, text };
}

describe("syncView", () => {
  it("shows the status as it is, with Retry only after a failure", () => {
    expect(syncView("synced", undefined, true)).toEqual({
      shown: "synced",
      message: undefined,
      canRetry: false,
    });
    expect(syncView("pending", undefined, false)).toEqual({
      shown: "pending",
      message: undefined,
      canRetry: false,
    });
    expect(syncView("failed", undefined, true)).toEqual({
      shown: "failed",
      message: undefined,
      canRetry: true,
    });
  });

  it("in a list (live), follows the refreshed status after a retry and hides the answer on a new failure", () => {
    expect(syncView("pending", "Sync retry queued.", true)).toEqual({
      shown: "pending",
      message: "Sync retry queued.",
      canRetry: false,
    });
    expect(syncView("synced", "Nothing to retry.", true)).toEqual({
      shown: "synced",
      message: "Nothing to retry.",
      canRetry: false,
    });
    // Sigma refused again after the retry: Failed, with Retry offered again.
    expect(syncView("failed", "Sync retry queued.", true)).toEqual({
      shown: "failed",
      message: undefined,
      canRetry: true,
    });
  });

  it("on an edit screen (a passed record), reads as pending once retried", () => {
    expect(syncView("failed", "Sync retry queued.", false)).toEqual({
      shown: "pending",
      message: "Sync retry queued.",
      canRetry: false,
    });
  });
});

describe("pendingSyncPollInterval", () => {
  const page = (...statuses: TSyncStatus[]) => ({
    rows: statuses.map((sync_status) => ({ sync_status })),
    total: statuses.length,
    limit: 50,
    offset: 0,
  });

  it("polls while a row is pending, and not otherwise", () => {
    expect(pendingSyncPollInterval(page("synced", "pending", "failed"))).toBe(PENDING_SYNC_POLL_MS);
    expect(pendingSyncPollInterval(page("synced", "failed"))).toBe(false);
    expect(pendingSyncPollInterval(page())).toBe(false);
    expect(pendingSyncPollInterval(undefined)).toBe(false);
  });
});

describe("retryStateOf", () => {
  it("maps a resync mutation, with the server's error or the fallback", () => {
    expect(retryStateOf({ isPending: true, isError: false, error: null })).toEqual({
      retrying: true,
      retried: undefined,
      retryError: undefined,
    });
    expect(
      retryStateOf({
        isPending: false,
        isError: false,
        error: null,
        data: { message: "Sync retry queued." },
      }),
    ).toEqual({ retrying: false, retried: "Sync retry queued.", retryError: undefined });
    expect(
      retryStateOf({ isPending: false, isError: true, error: new AppRequestError("Client not found.") }),
    ).toMatchObject({ retryError: "Client not found." });
    expect(retryStateOf({ isPending: false, isError: true, error: new TypeError("boom") })).toMatchObject({
      retryError: SYNC_RETRY_FAILED,
    });
  });
});

describe("SyncStatus in a list row (compact)", () => {
  it("says Synced or Pending in words, with no Retry and no reason", () => {
    for (const [status, word] of [
      ["synced", "Synced"],
      ["pending", "Pending"],
    ] as const) {
      const { html, text } = render(status, { error: null });
      expect(text).toBe(word);
      expect(html).not.toContain("<button");
    }
    expect(render("synced").text).toBe("Synced");
  });

  it("while pending after a temporary error, says it tries again by itself and shows the last answer", () => {
    const unreachable = "The BI service could not be reached (connect ECONNREFUSED 127.0.0.1:3100).";
    const { html, text } = render("pending", { error: unreachable });
    expect(text).toBe(`Pending Trying again automatically. Last answer: ${unreachable}`);
    expect(html).not.toContain("<button");
    expect(render("pending", { error: unreachable, variant: "detail" }).text).toBe(
      `Pending The latest changes are on their way to Sigma. Trying again automatically. Last answer: ${unreachable}`,
    );
  });

  it("shows a failure with its reason (describing the Retry button) and a Retry for screen readers by name", () => {
    const { html, text } = render("failed");
    expect(text).toBe(`Failed Retry sync of client CL-1001 ${REASON}`);
    const reasonId = /<span id="([^"]+)" title="[^"]*"[^>]*>Sigma API 409/.exec(html)?.[1];
    expect(reasonId).toBeTruthy();
    expect(html).toMatch(new RegExp(`<button [^>]*aria-describedby="${reasonId ?? "-"}"`));
    expect(html).toContain(`title="${REASON}"`);
  });

  it("shows progress while retrying: a busy, disabled button reading 'Retrying...'", () => {
    const { html, text } = render("failed", { retry: { retrying: true } });
    expect(text).toBe(`Failed Retrying... ${REASON}`);
    expect(html).toMatch(/<button [^>]*disabled=""[^>]*aria-busy="true"/);
  });

  it("reports a failed retry as an alert, keeping Retry available", () => {
    const { html, text } = render("failed", { retry: { retryError: "The portal could not be reached." } });
    expect(html).toContain(
      '<span role="alert" class="block text-red-700 text-xs">The portal could not be reached.</span>',
    );
    expect(text).toContain("Retry sync of client CL-1001");
  });

  it("after a retry, shows the server's answer as a status next to the refreshed state", () => {
    const { html, text } = render("pending", { retry: { retried: "Sync retry queued." } });
    expect(text).toBe("Pending Sync retry queued.");
    expect(html).toContain('role="status"');
  });

  it("a failure without a reason still offers Retry", () => {
    const { html, text } = render("failed", { error: null });
    expect(text).toBe("Failed Retry sync of client CL-1001");
    expect(html).not.toContain("aria-describedby");
  });
});

describe("SyncStatus on an edit screen (detail)", () => {
  it("keeps the sentence, the reason and 'Retry sync'", () => {
    expect(render("synced", { variant: "detail" }).text).toBe(
      "Synced Sigma has this person's latest details.",
    );
    expect(render("failed", { variant: "detail" }).text).toBe(
      `Failed Sigma did not accept the latest changes. ${REASON} Retry sync`,
    );
  });

  it("reads as pending with the server's answer once retried", () => {
    const { html, text } = render("failed", { variant: "detail", retry: { retried: "Sync retry queued." } });
    expect(text).toBe("Pending Sync retry queued.");
    expect(html).not.toContain("<button");
  });
});
