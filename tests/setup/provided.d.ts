/** Values the global setup provides to every suite through vitest's inject(). */
declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    mongoUri: string;
    redisUrl: string;
    dataDir: string;
    adminUsername: string;
    adminPassword: string;
  }
}
export {};
