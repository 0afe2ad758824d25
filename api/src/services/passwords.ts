import { hash, verify, type Algorithm } from "@node-rs/argon2";

/** Algorithm.Argon2id (a const enum, which isolated modules cannot read). */
const ARGON2ID = 2 as Algorithm;

/**
 * argon2id (hashed on the libuv thread pool, not the event loop) with OWASP's recommended minimum
 * (19 MiB, 2 passes). The test stack (NODE_ENV=test, never a deployment) hashes at argon2's smallest
 * cost: its suites create well over a thousand accounts, and the cost is not what they test. A
 * stored hash names its own parameters, so either kind verifies anywhere.
 */
const OPTIONS =
  process.env.NODE_ENV === "test"
    ? ({ algorithm: ARGON2ID, memoryCost: 1024, timeCost: 1, parallelism: 1 } as const)
    : ({ algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const);

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummyHash: Promise<string> | null = null;

/**
 * Verifies a password; with no stored hash it still spends the same work, so response times do
 * not reveal which phones are registered.
 */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword("not-a-real-password");
    await verify(await dummyHash, password);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
