import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import {
  DEADLINE_CHECK_MS,
  readEmbedSession,
  SESSION_END_MARGIN_MS,
  renewalLeadMs,
  renewalPlan,
  whenDue,
} from "../utils/embed-session";

const base64url = (text: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/** An embed URL as the API mints it, with a token whose payload is `claims` (the signature is not read). */
const mintedUrl = (claims: unknown) =>
  `http://127.0.0.1:3100/local/workbook/Tax-Center-x?:jwt=${base64url('{"alg":"HS256"}')}.${base64url(
    JSON.stringify(claims),
  )}.c2lnbmF0dXJl&:embed=true`;

const MINUTE = 60_000;

describe("readEmbedSession", () => {
  it("reads iat, exp and jti from the token in :jwt", () => {
    expect(
      readEmbedSession(
        mintedUrl({ sub: "olivia@example.com", iat: 1_700_000_000, exp: 1_700_003_600, jti: "j-1" }),
      ),
    ).toEqual({ issuedAt: 1_700_000_000, expiresAt: 1_700_003_600, jti: "j-1" });
    // Non-ASCII claims (a name) decode as UTF-8.
    expect(readEmbedSession(mintedUrl({ first_name: "Zoë", iat: 10, exp: 70 }))).toEqual({
      issuedAt: 10,
      expiresAt: 70,
      jti: null,
    });
  });

  it("has nothing to say about a URL without a readable token (such a frame is not renewed)", () => {
    for (const url of [
      undefined,
      null,
      "",
      "not a url",
      "http://127.0.0.1:3100/local/workbook/x",
      "http://127.0.0.1:3100/local/workbook/x?:jwt=",
      "http://127.0.0.1:3100/local/workbook/x?:jwt=opaque-token",
      "http://127.0.0.1:3100/local/workbook/x?:jwt=a.%%%.c",
      `http://127.0.0.1:3100/local/workbook/x?:jwt=a.${base64url("not json")}.c`,
      mintedUrl(null),
      mintedUrl([1, 2]),
      mintedUrl({ iat: 10 }),
      mintedUrl({ iat: "10", exp: "70" }),
      mintedUrl({ iat: 70, exp: 70 }),
      mintedUrl({ iat: 70, exp: 10 }),
    ]) {
      expect(readEmbedSession(url), String(url)).toBe(null);
    }
  });
});

describe("renewal timing", () => {
  it("renews a minute before the end, or a quarter of a short session before it", () => {
    expect(renewalLeadMs(3600)).toBe(MINUTE);
    expect(renewalLeadMs(240)).toBe(MINUTE);
    expect(renewalLeadMs(120)).toBe(30_000);
    expect(renewalLeadMs(60)).toBe(15_000);
  });

  it("counts from the URL's arrival with the token's length, whatever the browser's clock says", () => {
    // A browser clock an hour behind the server's (iat/exp are server time): the plan is the same.
    const session = { issuedAt: 1_700_000_000, expiresAt: 1_700_003_600, jti: null };
    const arrivedAt = (1_700_000_000 - 3600) * 1000;
    expect(renewalPlan(session, arrivedAt)).toEqual({
      renewAt: arrivedAt + 59 * MINUTE,
      endsAt: arrivedAt + 60 * MINUTE - SESSION_END_MARGIN_MS,
    });
    const short = { issuedAt: 0, expiresAt: 60, jti: null };
    expect(renewalPlan(short, 5_000)).toEqual({ renewAt: 50_000, endsAt: 63_000 });
  });

  it("does not renew a session cut shorter than the API ever issues (it ends with the portal session)", () => {
    expect(renewalPlan({ issuedAt: 0, expiresAt: 59, jti: null }, 0)).toEqual({
      renewAt: null,
      endsAt: 57_000,
    });
    expect(renewalPlan({ issuedAt: 0, expiresAt: 1, jti: null }, 0).renewAt).toBe(null);
  });
});

describe("whenDue", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2025-06-02T09:00:00Z"));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("calls back when the time comes, not before, and once", () => {
    const due = vi.fn();
    const session = readEmbedSession(mintedUrl({ iat: 100, exp: 160 }))!;
    const plan = renewalPlan(session, Date.now());
    whenDue(plan.renewAt!, due);
    vi.advanceTimersByTime(45_000 - 1);
    expect(due).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(due).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10 * MINUTE);
    expect(due).toHaveBeenCalledTimes(1);
  });

  it("calls back at once (on the next turn) when the time has already passed", () => {
    const due = vi.fn();
    whenDue(Date.now() - 5 * MINUTE, due);
    expect(due).not.toHaveBeenCalled();
    vi.advanceTimersByTime(0);
    expect(due).toHaveBeenCalledTimes(1);
  });

  it("after a sleep past the time (timers count awake time only), calls back within the check interval", () => {
    const due = vi.fn();
    whenDue(Date.now() + 59 * MINUTE, due);
    vi.advanceTimersByTime(20 * MINUTE);
    // The laptop sleeps two hours: the wall clock jumps, no timer runs meanwhile.
    vi.setSystemTime(Date.now() + 120 * MINUTE);
    expect(due).not.toHaveBeenCalled();
    // The next check, at most DEADLINE_CHECK_MS of awake time later, finds the time passed.
    vi.advanceTimersByTime(DEADLINE_CHECK_MS);
    expect(due).toHaveBeenCalledTimes(1);
  });

  it("checks the clock at once when the page becomes visible again", () => {
    const page = Object.assign(new EventTarget(), { visibilityState: "hidden" });
    vi.stubGlobal("document", page);
    const due = vi.fn();
    whenDue(Date.now() + 30 * MINUTE, due);
    vi.setSystemTime(Date.now() + 45 * MINUTE);
    page.dispatchEvent(new Event("visibilitychange"));
    expect(due).not.toHaveBeenCalled();
    page.visibilityState = "visible";
    page.dispatchEvent(new Event("visibilitychange"));
    expect(due).toHaveBeenCalledTimes(1);
    page.dispatchEvent(new Event("visibilitychange"));
    vi.advanceTimersByTime(DEADLINE_CHECK_MS);
    expect(due).toHaveBeenCalledTimes(1);
  });

  it("cancels: nothing is called after the cleanup", () => {
    const page = Object.assign(new EventTarget(), { visibilityState: "visible" });
    vi.stubGlobal("document", page);
    const due = vi.fn();
    const cancel = whenDue(Date.now() + MINUTE, due);
    cancel();
    vi.advanceTimersByTime(5 * MINUTE);
    page.dispatchEvent(new Event("visibilitychange"));
    expect(due).not.toHaveBeenCalled();
  });
});
