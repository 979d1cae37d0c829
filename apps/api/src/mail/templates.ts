import { DEFAULT_BRANDING, HEX_COLOUR } from "@portal/contracts";

/** What mail shows of the firm's branding (decision 014): its name, colour and support address. */
export interface MailFirm {
  firmName: string;
  primaryColour: string;
  supportEmail: string;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The HTML frame of every message: the firm's name on its primary colour, the body, and a button in that
 * colour (white text on it reaches WCAG AA, checked when it was saved). Inline styles: mail clients drop
 * style sheets. The colour is checked again here, so a value that is not `#rrggbb` never reaches a style.
 */
function frame(firm: MailFirm, body: string, action?: { url: string; label: string }): string {
  const colour = HEX_COLOUR.test(firm.primaryColour) ? firm.primaryColour : DEFAULT_BRANDING.primaryColour;
  const support = escapeHtml(firm.supportEmail);
  return `<div style="font-family:Arial,Helvetica,sans-serif;color:#1f2933;max-width:560px">
<div style="background:${colour};color:#ffffff;padding:16px 20px;font-size:18px;font-weight:bold">${escapeHtml(firm.firmName)}</div>
<div style="padding:8px 20px">
${body}
${action ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;background:${colour};color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none;font-weight:bold">${escapeHtml(action.label)}</a></p>` : ""}
<p style="font-size:12px;color:#52606d">Questions? Write to <a href="mailto:${support}" style="color:${colour}">${support}</a>.</p>
</div>
</div>`;
}

/** A mail with one link for the person to follow (reset, confirm). */
interface LinkMail {
  name: string;
  url: string;
  firm?: MailFirm;
}

/** The greeting ("Hello Olivia,") and the portal's name in the firm's words. */
const opening = (name: string, firm: MailFirm) => ({
  greeting: name ? `Hello ${name},` : "Hello,",
  portal: `${firm.firmName} client portal`,
});

const signature = (firm: MailFirm) => ["", `${firm.firmName}`, `Questions? Write to ${firm.supportEmail}.`];

export function passwordResetMail({ name, url, firm = DEFAULT_BRANDING }: LinkMail) {
  const { greeting, portal } = opening(name, firm);
  return {
    subject: `Reset your ${firm.firmName} portal password`,
    text: [
      greeting,
      "",
      `We received a request to reset the password of your ${portal} account.`,
      "Open this link within one hour to choose a new password. The link works once.",
      "",
      url,
      "",
      "If you did not ask for this, you can ignore this email: your password stays as it is.",
      ...signature(firm),
    ].join("\n"),
    html: frame(
      firm,
      `<p>${escapeHtml(greeting)}</p>
<p>We received a request to reset the password of your ${escapeHtml(portal)} account.
Open this link within one hour to choose a new password. The link works once.</p>
<p>If you did not ask for this, you can ignore this email: your password stays as it is.</p>`,
      { url, label: "Reset my password" },
    ),
  };
}

export function verifyEmailMail({ name, url, firm = DEFAULT_BRANDING }: LinkMail) {
  const { greeting, portal } = opening(name, firm);
  return {
    subject: `Confirm your email for the ${firm.firmName} portal`,
    text: [
      greeting,
      "",
      "Open this link within 24 hours to confirm your email address and finish creating your",
      `${portal} account:`,
      "",
      url,
      "",
      "If you did not create an account, you can ignore this email.",
      ...signature(firm),
    ].join("\n"),
    html: frame(
      firm,
      `<p>${escapeHtml(greeting)}</p>
<p>Open this link within 24 hours to confirm your email address and finish creating your ${escapeHtml(portal)} account.</p>
<p>If you did not create an account, you can ignore this email.</p>`,
      { url, label: "Confirm my email" },
    ),
  };
}

/** To the owner of an address someone tried to register again (the sign-up answer does not tell them). */
export function existingAccountMail({
  name,
  signInUrl,
  firm = DEFAULT_BRANDING,
}: {
  name: string;
  signInUrl: string;
  firm?: MailFirm;
}) {
  const { greeting, portal } = opening(name, firm);
  return {
    subject: `Someone tried to create a ${firm.firmName} portal account with your email`,
    text: [
      greeting,
      "",
      `Someone asked to create a ${portal} account with your email address, which already`,
      "has one. If it was you, sign in instead (or reset your password from the sign-in page):",
      "",
      signInUrl,
      "",
      "If it was not you, you can ignore this email: nothing was changed.",
      ...signature(firm),
    ].join("\n"),
    html: frame(
      firm,
      `<p>${escapeHtml(greeting)}</p>
<p>Someone asked to create a ${escapeHtml(portal)} account with your email address, which already has one.
If it was you, sign in instead (or reset your password from the sign-in page).</p>
<p>If it was not you, you can ignore this email: nothing was changed.</p>`,
      { url: signInUrl, label: "Sign in" },
    ),
  };
}

/** An invitation to a client or employee added without a password (D55): the link sets their own password. */
export function invitationMail({
  name,
  url,
  expiresAt,
  firm = DEFAULT_BRANDING,
}: {
  name: string;
  url: string;
  /** When the link stops working. */
  expiresAt: Date;
  firm?: MailFirm;
}) {
  const { greeting, portal } = opening(name, firm);
  const until = `${expiresAt.toUTCString().replace(/:\d\d GMT$/, " UTC")}`;
  return {
    subject: `You are invited to the ${firm.firmName} portal`,
    text: [
      greeting,
      "",
      `${firm.firmName} has created your ${portal} account, where you see your workbooks.`,
      "Open this link to choose your password and sign in. The link works once, until",
      `${until}.`,
      "",
      url,
      "",
      "If you did not expect this, you can ignore this email: nobody can sign in until a password is chosen.",
      ...signature(firm),
    ].join("\n"),
    html: frame(
      firm,
      `<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(firm.firmName)} has created your ${escapeHtml(portal)} account, where you see your workbooks.
Open this link to choose your password and sign in. The link works once, until ${escapeHtml(until)}.</p>
<p>If you did not expect this, you can ignore this email: nobody can sign in until a password is chosen.</p>`,
      { url, label: "Choose my password" },
    ),
  };
}

/** "12 March 2027": the day a delegation ends, in UTC (an end date without a time is that day's last moment). */
export const endDate = (date: Date) =>
  new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(date);

/** To a client, a week before a delegate's access to their workbooks ends (issue 23): the profile changes it. */
export function delegationEndingMail({
  name,
  delegateName,
  endsAt,
  url,
  firm = DEFAULT_BRANDING,
}: {
  /** The client's first name. */
  name: string;
  /** The name the client gave the delegate ("Daniel Reyes"). */
  delegateName: string;
  endsAt: Date;
  /** The client's profile, where delegates are listed. */
  url: string;
  firm?: MailFirm;
}) {
  const { greeting, portal } = opening(name, firm);
  const ending = `${delegateName}'s access to your workbooks ends on ${endDate(endsAt)}.`;
  const after = `After that, ${delegateName} can no longer view your workbooks in the ${portal}.`;
  const choice = "To keep sharing, choose a later end date on your profile. To let it end, do nothing.";
  return {
    subject: ending.slice(0, -1),
    text: [greeting, "", ending, after, "", choice, "", url, ...signature(firm)].join("\n"),
    html: frame(
      firm,
      `<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(ending)} ${escapeHtml(after)}</p>
<p>${escapeHtml(choice)}</p>`,
      { url, label: "Open my profile" },
    ),
  };
}

/**
 * A client's invitation to view their workbooks (issue 23): the link accepts it, and lets someone without a
 * password for the portal choose one.
 */
export function delegateInvitationMail({
  name,
  invitedBy,
  url,
  expiresAt,
  firm = DEFAULT_BRANDING,
}: {
  name: string;
  /** The client's name ("Olivia Bennett"). */
  invitedBy: string;
  url: string;
  expiresAt: Date;
  firm?: MailFirm;
}) {
  const { greeting, portal } = opening(name, firm);
  const until = `${expiresAt.toUTCString().replace(/:\d\d GMT$/, " UTC")}`;
  const invited = `${invitedBy} invited you to view their workbooks at ${firm.firmName}`;
  return {
    subject: invited,
    text: [
      greeting,
      "",
      `${invited}.`,
      `Open this link to accept in the ${portal}. If you have no password for it yet, you choose one there.`,
      `The link works once, until ${until}.`,
      "",
      url,
      "",
      "If you did not expect this, you can ignore this email: nothing is shared until you accept.",
      ...signature(firm),
    ].join("\n"),
    html: frame(
      firm,
      `<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(invited)}.
Open this link to accept in the ${escapeHtml(portal)}. If you have no password for it yet, you choose one there.
The link works once, until ${escapeHtml(until)}.</p>
<p>If you did not expect this, you can ignore this email: nothing is shared until you accept.</p>`,
      { url, label: "View the invitation" },
    ),
  };
}

/** "Friday, 27 November 2026 at 14:05 UTC (2026-11-27T14:05:09Z)": one time, the same for every reader. */
export const utcTime = (date: Date) =>
  `${new Intl.DateTimeFormat("en-GB", {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: "UTC",
  }).format(date)} UTC (${date.toISOString().replace(/\.\d{3}Z$/, "Z")})`;

/**
 * To a person whose account was signed in to from a browser it had not used (issue 24): when, which browser and
 * system, from which address, and "This wasn't me" (a page that signs the account out everywhere and starts a
 * password reset when its button is pressed; the link itself changes nothing, so mail scanners may open it).
 */
export function newDeviceMail({
  name,
  signedInAt,
  device,
  ip,
  url,
  firm = DEFAULT_BRANDING,
}: {
  name: string;
  signedInAt: Date;
  /** "Chrome 131 on Windows 10". */
  device: string;
  ip: string | null;
  /** The "This wasn't me" page, with the link's token. */
  url: string;
  firm?: MailFirm;
}) {
  const { greeting, portal } = opening(name, firm);
  const what = `Your ${portal} account was just signed in to from a browser it had not been used with before.`;
  const facts = [
    `Time: ${utcTime(signedInAt)}`,
    `Browser and system: ${device}`,
    `IP address: ${ip ?? "unknown"}`,
  ];
  const ifYou = "If this was you, there is nothing to do.";
  const ifNot =
    "If it was not you, open this link: we will sign your account out everywhere and email you a link to choose a new password. The link works once, for 7 days.";
  return {
    subject: `New sign-in to your ${firm.firmName} portal account`,
    text: [greeting, "", what, "", ...facts, "", ifYou, ifNot, "", url, ...signature(firm)].join("\n"),
    html: frame(
      firm,
      `<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(what)}</p>
<ul>${facts.map((fact) => `<li>${escapeHtml(fact)}</li>`).join("")}</ul>
<p>${escapeHtml(ifYou)}<br>${escapeHtml(ifNot)}</p>`,
      { url, label: "This wasn't me" },
    ),
  };
}

/**
 * A six-digit sign-in code by email (issue 24): the second step for someone without an authenticator app, where
 * the firm allows it. No link: the code is typed where the sign-in asked for it.
 */
export function signInCodeMail({
  name,
  code,
  firm = DEFAULT_BRANDING,
}: {
  name: string;
  code: string;
  firm?: MailFirm;
}) {
  const { greeting, portal } = opening(name, firm);
  const lines = [
    `Your code for signing in to the ${portal} is ${code}.`,
    "It works once, within ten minutes. Nobody from the firm will ever ask you for it.",
    "If you are not signing in right now, someone knows your password: choose a new one with Reset Password on the sign-in page.",
  ];
  return {
    subject: `${code} is your ${firm.firmName} sign-in code`,
    text: [greeting, "", ...lines, ...signature(firm)].join("\n"),
    html: frame(
      firm,
      `<p>${escapeHtml(greeting)}</p>
<p>Your code for signing in to the ${escapeHtml(portal)} is</p>
<p style="font-size:28px;font-weight:bold;letter-spacing:6px">${escapeHtml(code)}</p>
<p>${escapeHtml(lines[1]!)}</p>
<p>${escapeHtml(lines[2]!)}</p>`,
    ),
  };
}
