/**
 * `npm run reconcile`: finishes whatever a crash left half-done in the ledger and prints what it
 * did. The maintenance worker runs the same routine on a schedule; this is for operators.
 */
import { connectMongo, createIndexes, disconnectMongo, loadConfigOrExit, reconcileLedger } from "@storefront/shared/server";

const config = loadConfigOrExit();
await connectMongo(config.MONGODB_URI);
// The unique indexes the writes below rely on, also on a database no API has started on yet.
await createIndexes();
const report = await reconcileLedger();
console.log(JSON.stringify(report));
await disconnectMongo();
