import { Button } from "./button";

/** A whole screen that could not be shown, with the reason and a reload. */
export function ErrorScreen({ message }: { message: string }) {
  return (
    <main
      role="alert"
      className="flex min-h-dvh flex-col items-center justify-center bg-slate-50 px-6 text-center"
    >
      <h1 className="text-2xl font-semibold text-navy-950">Something went wrong.</h1>
      <p className="mt-3 max-w-md text-slate-600">{message}</p>
      <Button className="mt-8" onClick={() => window.location.reload()}>
        Reload the page
      </Button>
    </main>
  );
}
