export * from "./config";
export * from "./connections";
export * from "./logger";
export * from "./ledger";
export * from "./models/index";
export * from "./storage";
export * from "./realtime";
export * from "./queues";
