/**
 * `make()`'s value, made the first time it is asked for and kept. For module-level Intl formatters: the first
 * Intl object a page makes costs it 40–150 ms of one task (the locale data loads), which a module that is
 * only imported, or whose formatter only some rows need, should not add to the task that evaluates it
 * (decision 024).
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
