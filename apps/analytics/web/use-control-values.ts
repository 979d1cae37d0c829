import { useCallback, useRef, useState } from "react";
import type { EmbedBoot } from "../src/embed/boot.ts";
import type { Messenger } from "./messages.ts";

/**
 * The workbook's control values, in Sigma's URL-encoded form: those the data is asked for, the ones current
 * now (what the host is told), and a change, from the page or the host (`workbook:variables:onchange`).
 */
export function useControlValues(boot: EmbedBoot, messenger: Messenger) {
  const [variables, setVariables] = useState<Record<string, string>>(boot.initialVariables);
  const currentVariablesRef = useRef<Record<string, string>>(
    boot.initialData?.variables ?? boot.initialVariables,
  );
  const change = useCallback(
    (updates: Record<string, string>) => {
      const next = { ...currentVariablesRef.current, ...updates };
      currentVariablesRef.current = next;
      setVariables(next);
      messenger.post({ type: "workbook:variables:onchange", workbook: { variables: next } });
    },
    [messenger],
  );

  return { variables, currentVariablesRef, change };
}
