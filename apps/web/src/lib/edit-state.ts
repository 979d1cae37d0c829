import { useLocation, useSearchParams } from "react-router";
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

/**
 * What an edit screen is for: the record passed along by the list (see `passedRecord`), and the key to
 * look it up by (its own, else the one in the address parameter `param`; "" when there is none).
 */
export function useEditTarget<T>({
  param,
  stateKey,
  schema,
  keyOf,
}: {
  param: string;
  stateKey: string;
  schema: z.ZodType<T>;
  keyOf: (record: T) => string;
}): { passed: T | undefined; key: string } {
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const inAddress = searchParams.get(param) ?? "";
  const passed = passedRecord(
    location.state,
    stateKey,
    schema,
    (record) => !inAddress || keyOf(record) === inAddress,
  );
  return { passed, key: passed ? keyOf(passed) : inAddress };
}
