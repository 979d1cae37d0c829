import { z } from "zod";

/**
 * The record an edit screen was opened for: the one passed along in the navigation state by the list,
 * unless the address names another (`?id=` edited by hand); then the address wins and it is looked up.
 */
export function passedRecord<T>(
  state: unknown,
  key: string,
  schema: z.ZodType<T>,
  matches: (record: T) => boolean,
): T | undefined {
  const parsed = z.object({ [key]: schema }).safeParse(state);
  if (!parsed.success) return undefined;
  const record = parsed.data[key] as T;
  return matches(record) ? record : undefined;
}
