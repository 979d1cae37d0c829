import { describe, expect, it } from "vitest";

import type { TViewableClient } from "@portal/contracts";

import { AppRequestError } from "@/lib/errors";

import { clientNote } from "../utils/client-note";
import {
  clientSearch,
  isNotFound,
  ownsNoWorkbooks,
  parseClientParam,
  resolveViewedClient,
  switchTarget,
  viewedEntry,
  workbookPath,
} from "../utils/viewed-client";

const workbook = { id: 1, workbook_name: "Portfolio-Overview-x1", team_name: "Portfolio" };
const self: TViewableClient = {
  c_id: 3,
  name: "Liam Carter",
  self: true,
  expires_at: null,
  workbooks: [workbook],
};
const olivia: TViewableClient = {
  c_id: 12,
  name: "Olivia Bennett",
  self: false,
  expires_at: "2027-03-31T23:59:59.999Z",
  workbooks: [workbook],
};
const noah: TViewableClient = { c_id: 40, name: "Noah Reed", self: false, expires_at: null, workbooks: [] };

describe("parseClientParam (?client= in the URL)", () => {
  it("reads no parameter as the person's own workbooks", () => {
    expect(parseClientParam(null)).toEqual({ kind: "own" });
  });

  it("reads a client's number", () => {
    expect(parseClientParam("12")).toEqual({ kind: "client", id: 12 });
    expect(parseClientParam("2147483647")).toEqual({ kind: "client", id: 2_147_483_647 });
  });

  it("refuses what the API would refuse: not a positive whole number, leading zeros, out of range", () => {
    for (const value of ["", "0", "012", "-3", "1.5", "12a", " 12", "abc", "2147483648", "99999999999"]) {
      expect(parseClientParam(value), value).toEqual({ kind: "invalid" });
    }
  });
});

describe("ownsNoWorkbooks", () => {
  it("is true only for someone whose roles are delegate alone", () => {
    expect(ownsNoWorkbooks("delegate")).toBe(true);
    expect(ownsNoWorkbooks(" delegate ")).toBe(true);
    expect(ownsNoWorkbooks("client")).toBe(false);
    expect(ownsNoWorkbooks("employee")).toBe(false);
    expect(ownsNoWorkbooks("client,delegate")).toBe(false);
    expect(ownsNoWorkbooks(null)).toBe(false);
    expect(ownsNoWorkbooks(undefined)).toBe(false);
  });
});

describe("resolveViewedClient", () => {
  it("takes the client in the URL, for anyone, without waiting for the list", () => {
    expect(
      resolveViewedClient({ param: { kind: "client", id: 12 }, role: "client", clients: undefined }),
    ).toEqual({
      status: "ready",
      clientId: 12,
    });
    expect(
      resolveViewedClient({ param: { kind: "client", id: 12 }, role: "delegate", clients: undefined }),
    ).toEqual({ status: "ready", clientId: 12 });
  });

  it("shows a client or employee their own workbooks without a client in the URL, list or not", () => {
    for (const clients of [undefined, null, [self, olivia]]) {
      expect(resolveViewedClient({ param: { kind: "own" }, role: "client", clients })).toEqual({
        status: "ready",
        clientId: null,
      });
    }
    expect(resolveViewedClient({ param: { kind: "own" }, role: "employee", clients: undefined })).toEqual({
      status: "ready",
      clientId: null,
    });
  });

  it("opens the first client for a delegate without workbooks of their own, once the list is known", () => {
    expect(resolveViewedClient({ param: { kind: "own" }, role: "delegate", clients: undefined })).toEqual({
      status: "pending",
    });
    expect(
      resolveViewedClient({ param: { kind: "own" }, role: "delegate", clients: [olivia, noah] }),
    ).toEqual({
      status: "ready",
      clientId: 12,
    });
  });

  it("falls back to the person's own list when a delegate's list is empty or could not be loaded", () => {
    for (const clients of [[], null]) {
      expect(resolveViewedClient({ param: { kind: "own" }, role: "delegate", clients })).toEqual({
        status: "ready",
        clientId: null,
      });
    }
  });

  it("says an unreadable ?client= names no client", () => {
    expect(
      resolveViewedClient({ param: { kind: "invalid" }, role: "client", clients: [self, olivia] }),
    ).toEqual({
      status: "invalid",
    });
  });
});

describe("links that keep the client", () => {
  it("adds ?client= only for a client other than one's own", () => {
    expect(clientSearch(null)).toBe("");
    expect(clientSearch(12)).toBe("?client=12");
  });

  it("builds a workbook's link with the name encoded and the client kept", () => {
    expect(workbookPath("Tax-Center-hPiZ", null)).toBe("/workbooks/Tax-Center-hPiZ");
    expect(workbookPath("Tax Center/2026", 12)).toBe("/workbooks/Tax%20Center%2F2026?client=12");
  });

  it("sends a switch to the chosen client's first workbook, one's own without ?client=", () => {
    expect(switchTarget(olivia)).toBe("/?client=12");
    expect(switchTarget(self)).toBe("/");
  });
});

describe("viewedEntry (the switcher's current client)", () => {
  const clients = [self, olivia, noah];

  it("is one's own entry without a client, else the client's", () => {
    expect(viewedEntry(clients, { status: "ready", clientId: null })).toBe(self);
    expect(viewedEntry(clients, { status: "ready", clientId: 40 })).toBe(noah);
    // One's own record named in the URL is still oneself.
    expect(viewedEntry(clients, { status: "ready", clientId: 3 })).toBe(self);
  });

  it("is none for a client not in the list, or while it is not known", () => {
    expect(viewedEntry(clients, { status: "ready", clientId: 99 })).toBeUndefined();
    expect(viewedEntry(clients, { status: "pending" })).toBeUndefined();
    expect(viewedEntry(clients, { status: "invalid" })).toBeUndefined();
    expect(viewedEntry([olivia], { status: "ready", clientId: null })).toBeUndefined();
  });
});

describe("clientNote", () => {
  it("tells one's own workbooks from a client's, with the count", () => {
    expect(clientNote(self)).toBe("Your own workbooks · 1 workbook");
    expect(clientNote(noah)).toBe("Shared with you · 0 workbooks");
  });

  it("names the day a sharing ends", () => {
    const day = new Intl.DateTimeFormat(undefined, { dateStyle: "long" }).format(
      Date.parse(olivia.expires_at ?? ""),
    );
    expect(clientNote(olivia)).toBe(`Shared with you until ${day} · 1 workbook`);
  });
});

describe("isNotFound", () => {
  it("is true for the API's 404 only", () => {
    expect(isNotFound(new AppRequestError("Client not found.", { status: 404, code: "NOT_FOUND" }))).toBe(
      true,
    );
    expect(isNotFound(new AppRequestError("Server error.", { status: 500 }))).toBe(false);
    expect(isNotFound(new Error("404"))).toBe(false);
    expect(isNotFound(undefined)).toBe(false);
  });
});
