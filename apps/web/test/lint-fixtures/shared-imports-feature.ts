// Linted as a file of components/ and of lib/ (apps/web/test/lint-rules.test.ts): shared code importing a
// feature.
import { useSignOut } from "@/features/auth/api/use-sign-out";

export const sharedUsesAFeature = [useSignOut];
