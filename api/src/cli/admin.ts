/**
 * `npm run admin -- create <username> <role>`: creates an administrator straight in the database,
 * for a machine with no super admin yet (or none that can log in). The password is asked on the
 * terminal without echo, or read from NEW_ADMIN_PASSWORD for scripts; never from the command
 * line, where `ps` and shell history would show it. The same rules as the API apply.
 */
import { createInterface } from "node:readline/promises";
import { ADMIN_ROLES, createAdminRequestSchema } from "@storefront/shared";
import { AppError } from "../errors";
import { describeZodError } from "../middleware/validate";

const USAGE = `usage: npm run admin -- create <username> <${ADMIN_ROLES.join("|")}>
  password: typed at the prompt (not echoed), or NEW_ADMIN_PASSWORD=... for scripts`;

function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}

/** Reads a line from the terminal without echoing it. */
async function askHidden(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  process.stdout.write(question);
  // readline echoes through _writeToOutput; silencing it hides the typed characters.
  (rl as unknown as { _writeToOutput(text: string): void })._writeToOutput = () => {};
  try {
    return await rl.question("");
  } finally {
    rl.close();
    process.stdout.write("\n");
  }
}

async function readPassword(): Promise<string> {
  const fromEnv = process.env.NEW_ADMIN_PASSWORD;
  if (fromEnv) return fromEnv;
  if (!process.stdin.isTTY) fail(`no terminal to ask the password on: set NEW_ADMIN_PASSWORD\n${USAGE}`);
  const password = await askHidden("Password: ");
  if ((await askHidden("Password again: ")) !== password) fail("the passwords differ");
  return password;
}

const [command, username, role] = process.argv.slice(2);
if (command !== "create" || !username || !role) fail(USAGE);

const parsed = createAdminRequestSchema.safeParse({ username, role, password: await readPassword() });
if (!parsed.success) fail(describeZodError(parsed.error).message);

// The database code loads only for a request that passed the checks: a refusal answers at once.
const [{ connectMongo, disconnectMongo, loadConfigOrExit }, { recordAudit }, { createAdmin }] = await Promise.all([
  import("@storefront/shared/server"),
  import("../services/audit"),
  import("../services/admins"),
]);
const config = loadConfigOrExit();
await connectMongo(config.MONGODB_URI);
try {
  const admin = await createAdmin(null, parsed.data);
  await recordAudit(
    { id: "cli", username: "npm run admin", role: "super_admin" },
    { action: "admin.create", targetType: "admin", targetId: admin.id, before: null, after: admin },
  );
  console.log(JSON.stringify({ created: { id: admin.id, username: admin.username, role: admin.role } }));
} catch (error) {
  if (error instanceof AppError) fail(error.message, 1);
  throw error;
} finally {
  await disconnectMongo();
}
