function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function passwordResetMail({ name, url }: { name: string; url: string }) {
  const greeting = name ? `Hello ${name},` : "Hello,";
  return {
    subject: "Reset your Meridian portal password",
    text: [
      greeting,
      "",
      "We received a request to reset the password of your Meridian client portal account.",
      "Open this link within one hour to choose a new password. The link works once.",
      "",
      url,
      "",
      "If you did not ask for this, you can ignore this email: your password stays as it is.",
    ].join("\n"),
    html: `<p>${escapeHtml(greeting)}</p>
<p>We received a request to reset the password of your Meridian client portal account.
Open this link within one hour to choose a new password. The link works once.</p>
<p><a href="${escapeHtml(url)}">Reset my password</a></p>
<p>If you did not ask for this, you can ignore this email: your password stays as it is.</p>`,
  };
}

export function verifyEmailMail({ name, url }: { name: string; url: string }) {
  const greeting = name ? `Hello ${name},` : "Hello,";
  return {
    subject: "Confirm your email for the Meridian portal",
    text: [
      greeting,
      "",
      "Open this link within 24 hours to confirm your email address and finish creating your",
      "Meridian client portal account:",
      "",
      url,
      "",
      "If you did not create an account, you can ignore this email.",
    ].join("\n"),
    html: `<p>${escapeHtml(greeting)}</p>
<p>Open this link within 24 hours to confirm your email address and finish creating your Meridian client portal account.</p>
<p><a href="${escapeHtml(url)}">Confirm my email</a></p>
<p>If you did not create an account, you can ignore this email.</p>`,
  };
}

/** To the owner of an address someone tried to register again (the sign-up answer does not tell them). */
export function existingAccountMail({ name, signInUrl }: { name: string; signInUrl: string }) {
  const greeting = name ? `Hello ${name},` : "Hello,";
  return {
    subject: "Someone tried to create a Meridian portal account with your email",
    text: [
      greeting,
      "",
      "Someone asked to create a Meridian client portal account with your email address, which already",
      "has one. If it was you, sign in instead (or reset your password from the sign-in page):",
      "",
      signInUrl,
      "",
      "If it was not you, you can ignore this email: nothing was changed.",
    ].join("\n"),
    html: `<p>${escapeHtml(greeting)}</p>
<p>Someone asked to create a Meridian client portal account with your email address, which already has one.
If it was you, sign in instead (or reset your password from the sign-in page).</p>
<p><a href="${escapeHtml(signInUrl)}">Sign in</a></p>
<p>If it was not you, you can ignore this email: nothing was changed.</p>`,
  };
}
