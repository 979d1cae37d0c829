import type { ReactNode } from "react";

import illustration from "@/assets/economy-illustration.svg";
import { Logo } from "@/components/brand/logo";
import { PoweredBy } from "@/components/brand/powered-by";
import { useFirm } from "@/lib/branding";

type TAuthLayoutProps = {
  children: ReactNode;
  /** Short line under the illustration on wide screens. */
  tagline?: string;
};

/**
 * The frame of the sign-in screens: the branded background with logo, illustration and "Powered by" on the
 * left (or behind the card on phones), and the form card on the right. Part of the sign-in page, which has no
 * router: its links are plain page loads (decision 004).
 */
export function AuthLayout({
  children,
  tagline = "Your tax and wealth picture, in one secure place.",
}: TAuthLayoutProps) {
  const { firmName } = useFirm();
  return (
    <div className="bg-login min-h-dvh lg:grid lg:grid-cols-[minmax(0,1.1fr)_minmax(28rem,1fr)]">
      <aside className="flex flex-col px-6 pt-6 pb-4 sm:px-10 lg:min-h-dvh lg:px-14 lg:py-12">
        <a href="/login" className="self-start rounded-lg" aria-label={`${firmName}: sign-in`}>
          <Logo tone="light" />
        </a>
        <div className="hidden flex-1 flex-col items-center justify-center gap-8 py-10 lg:flex">
          <img src={illustration} alt="" width={520} height={380} className="w-full max-w-lg" />
          <div className="max-w-md text-center">
            <p className="text-2xl font-semibold tracking-tight text-white">{tagline}</p>
            <p className="mt-3 text-sm leading-relaxed text-navy-200">
              Reports, planning and tax documents prepared by your advisory team, available whenever you need
              them.
            </p>
          </div>
        </div>
        <div className="hidden lg:block">
          <PoweredBy />
        </div>
      </aside>

      <main className="flex flex-col items-center px-4 pb-6 sm:px-6 lg:justify-center lg:bg-slate-50 lg:py-12">
        {/* Its size (the SVG's viewBox) keeps the card from moving down when the image arrives. */}
        <img
          src={illustration}
          alt=""
          width={520}
          height={380}
          className="mb-2 w-full max-w-56 sm:max-w-64 lg:hidden"
        />
        <div className="w-full max-w-md rounded-2xl bg-white p-6 shadow-xl ring-1 ring-navy-900/5 sm:p-8 lg:shadow-lg">
          {children}
        </div>
        <footer className="mt-6 flex w-full max-w-md flex-col items-center gap-4 text-xs lg:mt-8">
          <nav aria-label="Legal" className="flex gap-5">
            <a
              href="/terms"
              className="font-medium text-navy-100 underline-offset-4 hover:underline lg:text-navy-700"
            >
              Terms of Service
            </a>
            <a
              href="/privacy"
              className="font-medium text-navy-100 underline-offset-4 hover:underline lg:text-navy-700"
            >
              Privacy Policy
            </a>
          </nav>
          <div className="lg:hidden">
            <PoweredBy />
          </div>
        </footer>
      </main>
    </div>
  );
}
