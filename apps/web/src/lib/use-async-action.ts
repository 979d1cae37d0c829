import { useState } from "react";

type TState<TInput, TResult> =
  | { status: "idle" }
  | { status: "pending"; input: TInput }
  | { status: "success"; input: TInput; data: TResult }
  | { status: "error"; input: TInput; error: unknown };

type TCallbacks<TResult> = {
  onSuccess?: (data: TResult) => void | Promise<void>;
  onError?: (error: unknown) => void;
};

/**
 * The state of one async action a form starts (pending, success, error), for the sign-in page, which has no
 * TanStack Query (decision 004). Like a mutation: `run` starts it, the callbacks see its outcome.
 */
export function useAsyncAction<TInput, TResult>(action: (input: TInput) => Promise<TResult>) {
  const [state, setState] = useState<TState<TInput, TResult>>({ status: "idle" });

  const run = (input: TInput, { onSuccess, onError }: TCallbacks<TResult> = {}) => {
    setState({ status: "pending", input });
    action(input)
      .then(
        async (data) => {
          setState({ status: "success", input, data });
          await onSuccess?.(data);
        },
        (error: unknown) => {
          setState({ status: "error", input, error });
          onError?.(error);
        },
      )
      // A callback that fails has nothing to show; the action's own outcome is already in the state.
      .catch((error: unknown) => console.error(error));
  };

  return {
    run,
    isPending: state.status === "pending",
    isSuccess: state.status === "success",
    isError: state.status === "error",
    error: state.status === "error" ? state.error : null,
    input: state.status === "idle" ? undefined : state.input,
  };
}
