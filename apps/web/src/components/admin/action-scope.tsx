import { createContext, useContext, useId, useState } from "react";
import type { ReactNode } from "react";

type TActionScope = { current: string | null; start: (action: string) => void };

const ActionScopeContext = createContext<TActionScope | null>(null);

/**
 * A screen where several actions each report their outcome beside their button (Edit Client's two-step reset,
 * "Sign out everywhere", the password-reset email, an invitation's Resend): only the latest action's message
 * shows, so an earlier one does not stay on screen after the next action.
 */
export function ActionScope({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<string | null>(null);
  return <ActionScopeContext value={{ current, start: setCurrent }}>{children}</ActionScopeContext>;
}

/**
 * One action of the scope: `start()` when it runs; `shows` whether its message is the latest (always, outside a
 * scope).
 */
export function useScopedAction() {
  const id = useId();
  const scope = useContext(ActionScopeContext);
  return {
    start: () => scope?.start(id),
    shows: scope === null || scope.current === null || scope.current === id,
  };
}
