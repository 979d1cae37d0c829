/**
 * A full page load of `path` that takes the place of the current history entry, like a redirect. Between the
 * sign-in page and the SPA (decision 004). Never resolves: whatever waits on it stays pending until the page
 * goes.
 */
export function replacePage(path: string): Promise<never> {
  window.location.replace(path);
  return new Promise<never>(() => undefined);
}
