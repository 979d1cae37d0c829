import { ArrowLeftIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";

import { Logo } from "@/components/brand/logo";
import { PageTitle } from "@/components/ui/page-title";
import { useFirm } from "@/lib/branding";

type TLegalPageProps = {
  title: string;
  updated: string;
  children: ReactNode;
};

/** Frame of the public legal pages (Terms of Service, Privacy Policy); sign-in is its own page (decision 004). */
export function LegalPage({ title, updated, children }: TLegalPageProps) {
  const { firmName } = useFirm();
  return (
    <div className="min-h-dvh bg-slate-50">
      <PageTitle title={title} />
      <header className="bg-login">
        <div className="mx-auto flex max-w-3xl items-center justify-between gap-4 px-5 py-6 sm:px-8">
          <Link to="/login" reloadDocument className="rounded-lg" aria-label={`${firmName}: sign-in`}>
            <Logo tone="light" />
          </Link>
          <Link
            to="/login"
            reloadDocument
            className="inline-flex items-center gap-1.5 rounded text-sm font-medium text-navy-100 hover:text-white"
          >
            <ArrowLeftIcon className="size-4" />
            Back to sign-in
          </Link>
        </div>
      </header>
      <main className="mx-auto max-w-3xl px-5 py-10 sm:px-8 sm:py-14">
        <article className="rounded-2xl border border-slate-200 bg-white px-6 py-8 shadow-sm sm:px-10 sm:py-10">
          <h1 className="text-3xl font-semibold tracking-tight text-navy-950">{title}</h1>
          <p className="mt-2 text-sm text-slate-500">Last updated {updated}</p>
          <div className="mt-8 space-y-8 text-[0.95rem] leading-relaxed text-slate-700">{children}</div>
        </article>
      </main>
    </div>
  );
}

export function LegalSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-3">
      <h2 className="text-lg font-semibold text-navy-900">{title}</h2>
      {children}
    </section>
  );
}

export function LegalList({ items }: { items: ReactNode[] }) {
  return (
    <ul className="list-disc space-y-1.5 pl-5 marker:text-emerald-600">
      {items.map((item, index) => (
        <li key={index}>{item}</li>
      ))}
    </ul>
  );
}
