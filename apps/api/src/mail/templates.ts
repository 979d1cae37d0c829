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
