/**
 * The only module that changes a balance (docs/ledger.md): each user's account is a chain of
 * entries, a movement is one insert at the chain's next place, and the user's `coins` is a copy of
 * the chain's head.
 */
export { append, appendSet, forgetHeads, type AppliedEntry, type EntryInput } from "./chain";
export * from "./errors";
export { findHold, releaseHold, settleHold } from "./holds";
export { ensureMigrated, LEDGER_MIGRATION_ID } from "./migrated";
export { credit, debit, hold, setBalance, spendDayOf, type HoldInput } from "./movements";
export { ledgerSum, RECONCILE_WINDOW_MS, reconcileLedger, type ReconcileReport } from "./reconcile";
