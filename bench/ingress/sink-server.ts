/**
 * A do-nothing HTTP server (node:http) that reads the request body and answers 200. Used to measure how fast
 * the load generator itself can go, so a server's figures are not limited by the client.
 *
 *   node dist/bench/ingress/sink-server.js [--port 3999]
 */
import http from "node:http";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { port: { type: "string", default: "3999" }, host: { type: "string", default: "127.0.0.1" } },
  strict: true,
});
const port = Number(values.port);

const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  req.on("data", () => {});
  req.on("end", () => {
    res.writeHead(200, { "content-length": "0" });
    res.end();
  });
});
server.listen(port, values.host, () => {
  process.stdout.write(`sink listening on http://${values.host}:${port}/webhook\n`);
});
const stop = () => server.close(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
