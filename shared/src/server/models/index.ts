export * from "./user";
export * from "./admin";
export * from "./ledger-entry";
export * from "./wallet-config";
export * from "./sms-ai-message";
export * from "./learned-response";
export * from "./conversation";
