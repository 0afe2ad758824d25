/** What the ledger answers when it moves nothing (docs/ledger.md). */

export class InsufficientCoinsError extends Error {
  constructor(
    readonly needed: number,
    readonly available: number,
  ) {
    super(`Insufficient coins: need ${needed}, have ${available}`);
  }
}

/** The key was used before for another user, kind or amount. */
export class IdempotencyConflictError extends Error {
  constructor(readonly key: string) {
    super(`Idempotency key ${key} was used for a different change`);
  }
}

/** The movement lost its place in the chain to other movements too many times in a row; nothing moved. */
export class LedgerInProgressError extends Error {
  constructor(readonly key: string) {
    super(`Ledger entry ${key} could not be applied now; nothing moved`);
  }
}

export class UnknownUserError extends Error {}

/** The charge would take the day's spending past the user's daily cap. */
export class DailyCapError extends Error {
  constructor(
    readonly cap: number,
    readonly spent: number,
    readonly needed: number,
  ) {
    super(`Daily spending cap of ${cap} coins: ${spent} spent today, ${needed} more asked`);
  }
}

/** The stored ledger is still in the old format: `npm run migrate` (migrations/ledger.ts). */
export class LedgerNotMigratedError extends Error {
  constructor() {
    super("The ledger's data is in the old format: run `npm run migrate`");
  }
}
