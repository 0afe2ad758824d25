/**
 * The baseline of the throughput measurement: a bare Express handler in its own process, with
 * the same JSON body parsing and JSON answer as an API call but no session, ledger or queue.
 */
import express from "express";

const app = express();
app.use(express.json({ limit: "100kb" }));
app.post("/bare", (req, res) => {
  const message = typeof req.body?.message === "string" ? req.body.message : "";
  res.json({ success: true, message: `echo: ${message}` });
});

const server = app.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  process.send?.({ type: "listening", port });
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
