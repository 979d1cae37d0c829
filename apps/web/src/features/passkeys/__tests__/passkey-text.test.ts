import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { DATE_AND_TIME } from "@/lib/relative-time";

import type { TPasskey } from "../api/get-passkeys";
import { PasskeyList, renameButtonId } from "../components/passkey-list";
import {
  addedMessage,
  passkeyFacts,
  passkeyName,
  removedMessage,
  renamedMessage,
  sortPasskeys,
  syncedText,
} from "../utils/passkey-text";

const now = Date.parse("2026-11-25T12:00:00Z");
const ago = (ms: number) => new Date(now - ms).toISOString();
const HOUR = 3_600_000;
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

const laptop: TPasskey = {
  id: "pk-laptop",
  name: "Work laptop",
  createdAt: ago(30 * 24 * HOUR),
  lastUsedAt: null,
  deviceType: "multiDevice",
  backedUp: true,
};
const phone: TPasskey = { ...laptop, id: "pk-phone", name: "Phone", createdAt: ago(2 * HOUR) };
const key: TPasskey = {
  ...laptop,
  id: "pk-key",
  name: "Security key",
  createdAt: ago(60 * 24 * HOUR),
  lastUsedAt: ago(5 * 60_000),
  deviceType: "singleDevice",
  backedUp: false,
};

describe("passkeyName", () => {
  it("is the person's own name, trimmed, or says it has none", () => {
    expect(passkeyName({ name: " Work laptop " })).toBe("Work laptop");
    expect(passkeyName({ name: null })).toBe("Unnamed passkey");
    expect(passkeyName({ name: "   " })).toBe("Unnamed passkey");
    expect(passkeyName({})).toBe("Unnamed passkey");
  });
});

describe("sortPasskeys", () => {
  it("puts the most recently used first, then the most recently added, then by name", () => {
    expect(sortPasskeys([laptop, phone, key]).map((p) => p.id)).toEqual(["pk-key", "pk-phone", "pk-laptop"]);
    const twin = { ...laptop, id: "pk-twin", name: "Desk" };
    expect(sortPasskeys([laptop, twin]).map((p) => p.name)).toEqual(["Desk", "Work laptop"]);
  });

  it("keeps the list it was given as it was", () => {
    const list = [laptop, phone];
    sortPasskeys(list);
    expect(list).toEqual([laptop, phone]);
  });

  it("orders passkeys without times after those with", () => {
    const undated = { ...laptop, id: "pk-old", createdAt: null };
    expect(sortPasskeys([undated, laptop]).map((p) => p.id)).toEqual(["pk-laptop", "pk-old"]);
  });
});

describe("passkeyFacts", () => {
  it("says when it was added and last used, relative while recent, and whether it is synced", () => {
    expect(passkeyFacts(key, now)).toEqual([
      { label: "Added", value: DATE_AND_TIME.format(new Date(key.createdAt!)), dateTime: key.createdAt },
      { label: "Last used", value: relative.format(-5, "minute"), dateTime: key.lastUsedAt },
      { label: "Stored", value: "On one device or security key only" },
    ]);
    expect(passkeyFacts(phone, now)[0]).toEqual({
      label: "Added",
      value: relative.format(-2, "hour"),
      dateTime: phone.createdAt,
    });
  });

  it("leaves out what the server does not say (Last used, until the list carries it)", () => {
    expect(passkeyFacts(laptop, now).map((fact) => fact.label)).toEqual(["Added", "Stored"]);
    expect(passkeyFacts({ createdAt: null, lastUsedAt: undefined }, now)).toEqual([]);
  });
});

describe("syncedText", () => {
  it("reads the backup flag and the device type", () => {
    expect(syncedText({ backedUp: true, deviceType: "singleDevice" })).toBe("Synced across your devices");
    expect(syncedText({ backedUp: false, deviceType: "multiDevice" })).toBe("Synced across your devices");
    expect(syncedText({ backedUp: false, deviceType: "singleDevice" })).toBe(
      "On one device or security key only",
    );
    expect(syncedText({})).toBeNull();
  });
});

describe("the card's messages", () => {
  it("name the passkey", () => {
    expect(addedMessage("Work laptop")).toBe('"Work laptop" was added. You can sign in with it from now on.');
    expect(renamedMessage("Phone")).toBe('The passkey is now called "Phone".');
    expect(removedMessage("Phone")).toMatch(/^"Phone" was removed and no longer signs you in\./);
  });
});

describe("PasskeyList", () => {
  const render = (renaming: { id: string; form: string } | null = null) =>
    renderToStaticMarkup(
      createElement(PasskeyList, {
        passkeys: sortPasskeys([laptop, key]),
        onRename: () => undefined,
        onRemove: () => undefined,
        renaming,
        busy: false,
      }),
    );

  it("is a named list with one item per passkey, in order", () => {
    const html = render();
    expect(html).toMatch(/^<ul aria-label="Your passkeys"/);
    const names = [...html.matchAll(/<p class="[^"]*font-medium[^"]*">([^<]+)<\/p>/g)].map((m) => m[1]);
    expect(names).toEqual(["Security key", "Work laptop"]);
  });

  it("names each button after its passkey, and gives Rename an id to return the focus to", () => {
    const html = render();
    const buttonText = (name: string) =>
      [...html.matchAll(/<button[^>]*>([\s\S]*?)<\/button>/g)]
        .map((m) => m[1]!.replace(/<[^>]+>/g, ""))
        .filter((text) => text.endsWith(name));
    expect(buttonText("Work laptop")).toEqual(["Rename passkey Work laptop", "Remove passkey Work laptop"]);
    expect(html).toContain(`id="${renameButtonId(laptop)}"`);
  });

  it("shows the Rename form in place of the passkey being renamed", () => {
    const text = render({ id: laptop.id, form: "THE FORM" }).replace(/<[^>]+>/g, "");
    expect(text).toContain("THE FORM");
    expect(text).not.toContain("Rename passkey Work laptop");
    expect(text).toContain("Rename passkey Security key");
  });

  it("gives the moments as machine-readable times", () => {
    expect(render()).toContain(`<time dateTime="${key.lastUsedAt}">`);
  });
});
