/**
 * `npm run reconcile`: finishes whatever a crash left half-done in the ledger and prints what it
 * did. The maintenance worker runs the same routine on a schedule; this is for operators.
 */
import { connectMongo, disconnectMongo, loadConfigOrExit, reconcileLedger } from "@storefront/shared/server";

const config = loadConfigOrExit();
await connectMongo(config.MONGODB_URI);
const report = await reconcileLedger();
console.log(JSON.stringify(report));
await disconnectMongo();
