export * from "./user";
export * from "./admin";
export * from "./ledger-entry";
export * from "./wallet-config";
export * from "./conversation";
