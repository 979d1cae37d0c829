import { ConfigError } from "../config.ts";

/**
 * Runs a command-line script's `main`: a configuration problem prints its readable list, any other failure
 * one line starting with `failure` ("Could not …"), never a stack trace; both exit 1.
 */
export function runScript(main: () => Promise<void>, failure: string): void {
  main().catch((error: unknown) => {
    console.error(
      error instanceof ConfigError
        ? error.message
        : `${failure}: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  });
}
