import { Component } from "react";
import type { ErrorInfo, ReactNode } from "react";

import { EmbedProblem } from "./embed-panels";

type TProps = {
  /** A new value (another workbook) clears a caught error. */
  resetKey: string | undefined;
  children: ReactNode;
};

type TState = { error: unknown; resetKey: string | undefined };

/**
 * Keeps a failure inside the workbook area: the sidebar, breadcrumb and account menu stay usable, and
 * another workbook or 'Try again' renders the view afresh.
 */
export class WorkbookErrorBoundary extends Component<TProps, TState> {
  override state: TState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<TState> {
    return { error: error ?? new Error("Unknown error") };
  }

  static getDerivedStateFromProps(props: TProps, state: TState): Partial<TState> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error("The workbook view failed.", error, info.componentStack);
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <section className="relative -mx-4 -my-6 min-h-[calc(100dvh-90px)] sm:-mx-8 sm:-my-8">
        <h1 className="sr-only">Workbook</h1>
        <EmbedProblem
          title="This workbook could not be shown."
          onRetry={() => this.setState({ error: null })}
        >
          <p>Something went wrong while showing it. The rest of the portal still works.</p>
        </EmbedProblem>
      </section>
    );
  }
}
