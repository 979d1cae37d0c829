/**
 * Stand-in for a back-office screen whose issue has not landed yet: the route exists (so links and
 * redirects work) and says plainly that the screen is still to come.
 */
export function BackOfficePlaceholder({ title }: { title: string }) {
  return (
    <section aria-labelledby="page-title" className="space-y-2">
      <h1 id="page-title" className="text-2xl font-semibold tracking-tight text-navy-950">
        {title}
      </h1>
      <p className="text-sm text-slate-600">This screen arrives with the back office.</p>
    </section>
  );
}
