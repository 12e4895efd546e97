import { connect, createServer, type Server, type Socket } from "node:net";

export type ProxyMode = "forward" | "blackhole" | "cut-after-forward" | "delay";

/**
 * A TCP proxy on loopback in front of Redis, so tests can make Redis
 * unreachable (stop: the port is closed), silent (blackhole: bytes go
 * nowhere), or drop the connection right after a command was forwarded
 * (cut-after-forward: Redis runs it, the client never hears back), or slow
 * (delay: every chunk towards Redis waits `delayMs`).
 */
export class TcpProxy {
  mode: ProxyMode = "forward";
  delayMs = 300;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  static async create(target: { host: string; port: number }): Promise<TcpProxy> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return new TcpProxy(port, target);
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.server !== undefined) return;
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", resolve);
    });
    this.server = server;
  }

  /** Closes the port and every connection through it. */
  async stop(): Promise<void> {
    this.dropConnections();
    const server = this.server;
    this.server = undefined;
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  private accept(client: Socket): void {
    const upstream = connect(this.target.port, this.target.host);
    this.sockets.add(client);
    this.sockets.add(upstream);
    const close = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on("error", close);
    upstream.on("error", close);
    client.on("close", close);
    upstream.on("close", close);
    client.on("data", (chunk) => {
      if (this.mode === "blackhole") return;
      if (this.mode === "delay") {
        setTimeout(() => upstream.write(chunk), this.delayMs);
        return;
      }
      upstream.write(chunk);
      if (this.mode === "cut-after-forward") setTimeout(close, 20);
    });
    upstream.on("data", (chunk) => {
      if (this.mode === "forward" || this.mode === "delay") client.write(chunk);
    });
  }
}
