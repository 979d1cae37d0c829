import { Link } from "react-router";

import { Logo } from "@/components/brand/logo";
import { buttonClasses } from "@/components/ui/button";
import { PageTitle } from "@/components/ui/page-title";

/** Any path outside the route table. */
export function NotFound() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-slate-50 px-6 text-center">
      <PageTitle title="Page not found" />
      <Logo className="mb-10" />
      <p className="text-7xl font-bold tracking-tight text-navy-900 sm:text-8xl">404</p>
      <h1 className="mt-4 text-2xl font-semibold text-navy-950">Oops! Page not found.</h1>
      <p className="mt-3 max-w-md text-slate-600">
        The page you’re looking for doesn’t exist or has been moved.
      </p>
      <Link to="/" className={buttonClasses("primary") + " mt-8"}>
        Go Home
      </Link>
    </main>
  );
}
