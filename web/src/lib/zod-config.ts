/**
 * Imported first by main.tsx, before any schema exists: zod reads this when a schema is created.
 * Without it zod probes `new Function` to compile faster parsers, which the Content-Security-Policy
 * (no eval, docs/security.md) refuses and reports as a violation. Form parsing does not need the speed.
 */
import { config } from "zod";

config({ jitless: true });
