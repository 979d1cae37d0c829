import { useEffect, useState } from "react";

type TFind = () => HTMLElement | null;

/**
 * Gives the focus to an element once React has rendered the state change made with it: `focusAfterRender(find)`
 * next to a `setState` that closes a form focuses what `find` returns after that render is on the screen (the
 * button the form replaced, enabled again). A `requestAnimationFrame` may run before React commits an update
 * made outside an event handler (a mutation's callback), and then finds the form still there.
 */
export function useFocusAfterRender(): (find: TFind) => void {
  const [target, setTarget] = useState<{ find: TFind } | null>(null);
  useEffect(() => {
    // Once per request: a new object each time, so later renders do not move the focus again.
    target?.find()?.focus();
  }, [target]);
  return (find) => setTarget({ find });
}
