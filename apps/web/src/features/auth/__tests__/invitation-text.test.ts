import { afterEach, describe, expect, it, vi } from "vitest";

import { ZAcceptInvitationRequestSchema } from "@portal/contracts";

import { AppRequestError } from "@/lib/errors";

import { acceptInvitation } from "../api/accept-invitation";
import {
  acceptedText,
  acceptRequest,
  CHOOSE_PASSWORD,
  invitationIntro,
  isLinkError,
} from "../invitation-text";

const TOKEN = "a".repeat(43);

afterEach(() => vi.unstubAllGlobals());

describe("invitationIntro", () => {
  it("names the client who invited a delegate", () => {
    expect(invitationIntro({ kind: "delegate", invitedBy: "Olivia Bennett", hasPassword: true })).toBe(
      "Olivia Bennett invited you to view their workbooks.",
    );
    expect(invitationIntro({ kind: "delegate", invitedBy: "Olivia Bennett", hasPassword: false })).toBe(
      "Olivia Bennett invited you to view their workbooks.",
    );
    expect(invitationIntro({ kind: "delegate", invitedBy: null, hasPassword: false })).toBe(
      "You are invited to view a client's workbooks.",
    );
  });

  it("keeps the firm's invitation as it was", () => {
    expect(invitationIntro({ kind: "client", invitedBy: null, hasPassword: false })).toBe(CHOOSE_PASSWORD);
    expect(CHOOSE_PASSWORD).toBe("Choose the password you will sign in to the portal with.");
    expect(invitationIntro({ kind: "employee", invitedBy: null, hasPassword: true })).toBe(
      "Accept your invitation to the portal.",
    );
  });
});

describe("accepting", () => {
  it("sends only the token for someone who already has a password", () => {
    expect(acceptRequest(TOKEN)).toEqual({ token: TOKEN });
    expect(acceptRequest(TOKEN, "a long passphrase")).toEqual({
      token: TOKEN,
      password: "a long passphrase",
    });
    expect(ZAcceptInvitationRequestSchema.safeParse(acceptRequest(TOKEN)).success).toBe(true);
  });

  it("posts the body to /api/invitations/accept", async () => {
    const fetch = vi.fn(
      async () =>
        new Response(
          JSON.stringify({ message: "Accepted.", email: "sam@example.com", twoStepRequired: false }),
          {
            status: 200,
          },
        ),
    );
    vi.stubGlobal("fetch", fetch);
    await expect(acceptInvitation(acceptRequest(TOKEN))).resolves.toMatchObject({ email: "sam@example.com" });
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe("/api/invitations/accept");
    expect(init.method).toBe("POST");
    expect(JSON.parse(String(init.body))).toEqual({ token: TOKEN });
  });

  it("says where the shared workbooks are once accepted", () => {
    expect(acceptedText("Olivia Bennett")).toBe(
      "Invitation accepted. Sign in with your usual password to view Olivia Bennett's workbooks.",
    );
    expect(acceptedText(null)).toBe(
      "Invitation accepted. Sign in with your usual password to view the workbooks shared with you.",
    );
  });

  it("tells a link that can no longer be used from other failures", () => {
    expect(isLinkError(new AppRequestError("Used.", { status: 410, code: "INVITATION_USED" }))).toBe(true);
    expect(isLinkError(new AppRequestError("Expired.", { status: 410, code: "INVITATION_EXPIRED" }))).toBe(
      true,
    );
    expect(isLinkError(new AppRequestError("Server error.", { status: 500 }))).toBe(false);
    expect(isLinkError(new Error("INVITATION_USED"))).toBe(false);
  });
});
