/** Helpers for the provider suites (their calls run against local wire-format peers). */
import { ProviderError } from "../../workers/src/providers/index";

/** The ProviderError a call ends with; any other outcome (success or another error) fails the test. */
export async function providerRejection(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error("expected a ProviderError");
}
