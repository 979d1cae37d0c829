import { useFirm } from "@/lib/branding";

import { LegalList, LegalPage, LegalSection } from "./legal-page";

/** /terms: the portal's Terms of Service. */
export function TermsOfService() {
  const { firmName } = useFirm();
  return (
    <LegalPage title="Terms of Service" updated="November 22, 2026">
      <p>
        These terms govern your use of the {firmName} client portal (the &ldquo;Portal&rdquo;). The Portal is
        provided to clients, employees and invited collaborators of {firmName} (&ldquo;we&rdquo;,
        &ldquo;us&rdquo;) so they can view reports and analytics prepared in the course of our tax and wealth
        advisory services. By signing in you agree to these terms.
      </p>

      <LegalSection title="1. Who may use the Portal">
        <p>
          Access is personal. Accounts are created by our staff for clients and employees, or by invited
          authors and editors using an email address of a domain we have approved. You must keep your sign-in
          details confidential, must not share your account, and must tell us at once if you think someone
          else has used it.
        </p>
      </LegalSection>

      <LegalSection title="2. What the Portal provides">
        <p>
          The Portal shows workbooks, dashboards and documents that summarise your financial, tax and
          investment information. It is an information service that supports the advice we give you; it is not
          itself advice.
        </p>
        <LegalList
          items={[
            "Figures may be based on data from custodians, banks and other third parties and may be delayed or incomplete.",
            "Projections and scenarios are estimates that depend on assumptions; actual results will differ.",
            "Tax positions depend on your full circumstances and on law that changes. Please talk to your advisor before you act on anything you see.",
          ]}
        />
      </LegalSection>

      <LegalSection title="3. Acceptable use">
        <p>When using the Portal you agree not to:</p>
        <LegalList
          items={[
            "try to view information about anyone other than yourself or the clients assigned to you;",
            "probe, scan or test the Portal's security, or circumvent its access controls;",
            "copy, scrape or redistribute the Portal's content except for your own records;",
            "upload or transmit malicious code, or interfere with the Portal's operation.",
          ]}
        />
        <p>We may suspend an account that we reasonably believe is being misused or is at risk.</p>
      </LegalSection>

      <LegalSection title="4. Security">
        <p>
          We protect the Portal with industry-standard controls, including encrypted connections, hashed
          passwords, limits on repeated sign-in attempts, session time-outs and audit logging of sign-ins and
          administrative changes. You help by choosing a strong password that you use nowhere else and by
          signing out on shared devices.
        </p>
      </LegalSection>

      <LegalSection title="5. Third-party services">
        <p>
          Analytics in the Portal are delivered through an embedded business-intelligence service (Sigma
          Computing), and you may choose to sign in with a third-party identity provider. These providers
          process data on our behalf under contract; their own terms apply to their services.
        </p>
      </LegalSection>

      <LegalSection title="6. Availability and changes">
        <p>
          We aim to keep the Portal available at all times but may interrupt it for maintenance, security or
          reasons beyond our control. We may change the Portal or these terms; material changes will be
          announced in the Portal or by email before they take effect.
        </p>
      </LegalSection>

      <LegalSection title="7. Liability">
        <p>
          Your engagement letter with us governs our advisory services and our liability for them. To the
          extent permitted by law, we are not liable for losses arising solely from temporary unavailability
          of the Portal or from decisions taken on the basis of Portal content without consulting your
          advisor.
        </p>
      </LegalSection>

      <LegalSection title="8. Ending access">
        <p>
          You may ask us to close your account at any time. Access ends automatically when our engagement
          ends. We keep records as required by law and professional rules, as explained in our Privacy Policy.
        </p>
      </LegalSection>

      <LegalSection title="9. Contact">
        <p>
          Questions about these terms: contact your advisor, or write to compliance@meridian-advisory.example.
        </p>
      </LegalSection>
    </LegalPage>
  );
}
