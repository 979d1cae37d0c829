import { useFirm } from "@/lib/branding";

import { LegalList, LegalPage, LegalSection } from "./legal-page";

/** /privacy: how the portal handles personal and financial information. */
export function PrivacyPolicy() {
  const { firmName } = useFirm();
  return (
    <LegalPage title="Privacy Policy" updated="November 22, 2026">
      <p>
        {firmName} takes the confidentiality of your financial affairs seriously. This policy explains what
        personal information the client portal (the &ldquo;Portal&rdquo;) handles, why, and the choices you
        have. It supplements the privacy notice you received with your engagement letter.
      </p>

      <LegalSection title="Information we handle">
        <LegalList
          items={[
            <>
              <strong className="font-semibold text-navy-900">Account details:</strong> your name, email
              address, role, and a securely hashed password (we never store or see your password itself).
            </>,
            <>
              <strong className="font-semibold text-navy-900">Financial information:</strong> the tax,
              portfolio, income and planning data shown in the workbooks prepared for you.
            </>,
            <>
              <strong className="font-semibold text-navy-900">Security and usage records:</strong> sign-in
              times, IP addresses, the reports you open and administrative changes, kept in an audit trail.
            </>,
          ]}
        />
      </LegalSection>

      <LegalSection title="How we use it">
        <LegalList
          items={[
            "to give you, and the advisors assigned to you, access to your reports;",
            "to secure the Portal: verify sign-ins, detect misuse and investigate incidents;",
            "to meet our legal and regulatory record-keeping obligations;",
            "to contact you about your account, for example to reset a password.",
          ]}
        />
        <p>We do not sell your information and do not use it for advertising.</p>
      </LegalSection>

      <LegalSection title="Who can see it">
        <p>
          Only you, the employees of our firm assigned to you, and a small number of administrators can see
          your information, and each access is limited to what that role needs. Our service providers
          (hosting, email delivery and the embedded analytics service, Sigma Computing) process data only on
          our instructions and under confidentiality agreements. We disclose information to authorities only
          where the law requires it.
        </p>
      </LegalSection>

      <LegalSection title="Cookies">
        <p>
          The Portal uses a single essential session cookie to keep you signed in. It is secured, not readable
          by scripts, and expires when your session ends. We use no advertising or third-party tracking
          cookies.
        </p>
      </LegalSection>

      <LegalSection title="How long we keep it">
        <p>
          We keep account and audit records for as long as you are a client and afterwards for the periods
          that tax and securities regulations require (generally five to seven years), then delete or
          anonymise them.
        </p>
      </LegalSection>

      <LegalSection title="Your rights">
        <p>
          Depending on where you live, you may ask for a copy of your information, ask us to correct or delete
          it, or object to certain uses. You can change your display name on your profile page at any time.
          For other requests, contact your advisor or privacy@meridian-advisory.example; we reply within 30
          days.
        </p>
      </LegalSection>

      <LegalSection title="Security">
        <p>
          Information is encrypted in transit, access is logged, and our systems follow recognised security
          standards for financial services. If we learn of a breach affecting your information we will notify
          you and the relevant authorities as the law requires.
        </p>
      </LegalSection>
    </LegalPage>
  );
}
