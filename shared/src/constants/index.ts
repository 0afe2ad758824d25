/**
 * Business constants of SPEC §3 and §9, the one place the API, workers and web read them from.
 * One module per subject, so the web bundle carries each screen's constants in that screen's chunk.
 */
export * from "./languages";
export * from "./personas";
export * from "./images";
export * from "./videos";
export * from "./limits";
export * from "./accounts";
export * from "./sms";
export * from "./countries";
