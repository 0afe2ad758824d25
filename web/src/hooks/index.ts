export * from "./useAuth";
export * from "./useServerEvent";
export * from "./useMediaQuery";
export * from "./useFormat";
export * from "./useStoredState";
export * from "./useWallet";
export * from "./useSignOut";
