export * from "./Toasts";
export * from "./WalletBadge";
export * from "./LanguageToggle";
export * from "./Spinner";
export * from "./ConfirmDialog";
export * from "./Guards";
export * from "./Layout";
export { default as QueryProvider } from "./QueryProvider";
export * from "./AppLink";
