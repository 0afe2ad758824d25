/**
 * `npm run migrate`: the data migrations the API also runs at start (every phone to E.164; the ledger
 * to the chain format, docs/ledger.md; the phone index that lets a proven owner take a number back is
 * rebuilt by connectMongo itself), printing what they did. Phones that turn out to be one number, and
 * users whose balance is not the sum of their old entries, are listed for an operator (exit 2).
 */
import { connectMongo, disconnectMongo, loadConfigOrExit, migrateLedger, migratePhones } from "@storefront/shared/server";

const config = loadConfigOrExit();
await connectMongo(config.MONGODB_URI);
const phones = await migratePhones(config.DEFAULT_PHONE_COUNTRY);
const ledger = await migrateLedger();
console.log(JSON.stringify({ phones, ledger }));
await disconnectMongo();
if (phones.duplicates.length || ledger.mismatched.length) process.exitCode = 2;
