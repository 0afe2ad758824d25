/** Values the global setup provides to every suite through vitest's inject(). */
declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    mongoUri: string;
    redisUrl: string;
    dataDir: string;
    /** The tests' push service's certificate and key (tests/peers/push-service.ts), trusted by the stack. */
    pushServiceTls: { certFile: string; keyFile: string };
    adminUsername: string;
    adminPassword: string;
  }
}
export {};
