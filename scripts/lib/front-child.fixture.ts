/** An API process as the front sees it (front.test.ts): serves the connections it is handed, answering its pid. */
import { createServer } from "node:http";
import { serveHandedConnections } from "../../shared/src/server/handover";

const server = createServer((_req, res) => {
  res.setHeader("Connection", "close");
  res.end(String(process.pid));
});
serveHandedConnections(server);
process.send?.({ type: "ready" });
