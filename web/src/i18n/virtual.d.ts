/** Served by the vite plugin in vite.config.ts: the public sections of a catalog. */
declare module "virtual:i18n-public/*" {
  const catalog: Record<string, unknown>;
  export default catalog;
}
