/** Served by the vite plugin in vite.plugins.ts (`publicCatalogs`): parts of a catalog the public pages need first. */
declare module "virtual:i18n-public/*" {
  const catalog: Record<string, unknown>;
  export default catalog;
}
declare module "virtual:i18n-sign-in/*" {
  const catalog: Record<string, unknown>;
  export default catalog;
}
