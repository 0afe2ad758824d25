/** The benchmark's subscribers: signed up, logged in, and given coins through the admin call. */
import { randomBytes } from "node:crypto";

/** The session cookie ("name=value") of a Set-Cookie answer. */
function sessionCookie(res: Response): string {
  const cookies = res.headers.getSetCookie().map((line) => line.split(";")[0]!);
  if (cookies.length === 0) throw new Error("no session cookie in the answer");
  return cookies.join("; ");
}

export async function postJson(url: string, body: unknown, cookie?: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

export interface BenchUser {
  id: string;
  phone: string;
  cookie: string;
}

/** Signs up and logs in `count` users, then sets each balance through the admin call (a ledger entry). */
export async function makeUsers(
  api: string,
  count: number,
  admin: { username: string; password: string },
): Promise<{ users: BenchUser[]; adminCookie: string }> {
  const adminLogin = await postJson(`${api}/api/admin/login.php`, admin);
  if (adminLogin.status !== 200) throw new Error(`admin login failed: ${adminLogin.status} ${await adminLogin.text()}`);
  const adminCookie = sessionCookie(adminLogin);
  const users: BenchUser[] = [];
  for (let i = 0; i < count; i++) {
    const phone = `+1999${String(process.pid % 1000).padStart(3, "0")}${String(i).padStart(4, "0")}`;
    const password = randomBytes(12).toString("hex");
    const signup = await postJson(`${api}/api/signup.php`, { phone, password });
    if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
    const login = await postJson(`${api}/api/login-session-fix.php`, { phone, password });
    if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const { user } = (await login.json()) as { user: { id: string } };
    const cookie = sessionCookie(login);
    const coins = await postJson(
      `${api}/api/admin/update-user-tier.php`,
      { userId: user.id, newCoins: 1_000_000, newTier: 1 },
      adminCookie,
    );
    if (coins.status !== 200) throw new Error(`giving coins failed: ${coins.status} ${await coins.text()}`);
    users.push({ id: user.id, phone, cookie });
  }
  return { users, adminCookie };
}
