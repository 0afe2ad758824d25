/**
 * `npm run migrate`: the data migrations the API also runs at start (every phone to E.164; the
 * phone index that lets a proven owner take a number back is rebuilt by connectMongo itself),
 * printing what they did. Phones that turn out to be one number are listed for an operator.
 */
import { connectMongo, disconnectMongo, loadConfigOrExit, migratePhones } from "@storefront/shared/server";

const config = loadConfigOrExit();
await connectMongo(config.MONGODB_URI);
const phones = await migratePhones(config.DEFAULT_PHONE_COUNTRY);
console.log(JSON.stringify({ phones }));
await disconnectMongo();
if (phones.duplicates.length) process.exitCode = 2;
