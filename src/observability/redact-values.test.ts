import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "./logger.js";
import { createLineRedactor } from "./redact-values.js";

const META_TOKEN = "EAAGm0PX4ZCpsBAKZB9example0token0value0ZD";
const OPENAI_KEY = "sk-proj-abcDEF0123456789ghijKLMN";
const APP_SECRET = "0d1e2f3a4b5c6d7e8f90a1b2c3d4e5f6";
const PHONE = "2348012345678";

function capture(secrets: readonly string[] = []) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = createLogger({ level: "debug", destination, secrets });
  const text = () => lines.join("");
  // Every line stays JSON, whatever was cut out of it.
  const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, text, parsed };
}

describe("logger: redaction by value", () => {
  it("redacts tokens, keys and URL credentials at any depth, in arrays and in the message", () => {
    const { logger, text, parsed } = capture();
    logger.info(
      {
        a: { b: { c: { d: { e: { note: `called with ${META_TOKEN}` } } } } },
        list: [[{ header: `Bearer ${OPENAI_KEY}` }], "redis://default:hunter2pass@cache.internal:6379/0"],
        db: "postgres://app:s3cr3t-pw@db.internal:5432/ss",
        query: "https://api.example/x?access_token=abc123def&page=2",
      },
      `connecting with ${OPENAI_KEY} to rediss://user:p%40ss@r.example:6380`,
    );
    const line = text();
    for (const secret of [META_TOKEN, OPENAI_KEY, "hunter2pass", "s3cr3t-pw", "abc123def", "p%40ss"]) {
      expect(line).not.toContain(secret);
    }
    const [entry] = parsed();
    expect(entry).toMatchObject({
      list: [[{ header: "Bearer [redacted]" }], "redis://[redacted]@cache.internal:6379/0"],
      db: "postgres://[redacted]@db.internal:5432/ss",
      query: "https://api.example/x?access_token=[redacted]&page=2",
      msg: "connecting with [redacted] to rediss://[redacted]@r.example:6380",
    });
    expect(line).toContain("cache.internal:6379");
  });

  it("redacts an error's message and stack, nested causes included", () => {
    const { logger, text, parsed } = capture();
    const cause = new Error(`Graph API said no to ${META_TOKEN}`);
    const error = new Error(`login to postgres://app:pw-in-error@db:5432 failed`, { cause });
    logger.error({ err: error }, "start failed");
    logger.error(new Error(`Authorization: Bearer ${OPENAI_KEY} refused`));
    const line = text();
    expect(line).not.toContain(META_TOKEN);
    expect(line).not.toContain("pw-in-error");
    expect(line).not.toContain(OPENAI_KEY);
    const [first, second] = parsed();
    const stack = String((first?.err as { stack?: string } | undefined)?.stack);
    expect(stack).toMatch(/postgres:\/\/\[redacted\]@db:5432/);
    expect(second?.msg).toBe("Authorization: [redacted] refused");
  });

  it("survives a cycle", () => {
    const { logger, text } = capture();
    const loop: Record<string, unknown> = { key: `Bearer ${OPENAI_KEY}` };
    loop.self = loop;
    logger.info({ loop }, "cycle");
    expect(text()).toContain('"self":"[Circular]"');
    expect(text()).not.toContain(OPENAI_KEY);
  });

  it("redacts sensitive keys' string values below pino's two levels, in any case", () => {
    const { logger, parsed } = capture();
    logger.info({
      tool: {
        request: { headers: { Authorization: "Basic dXNlcjpwYXNz", "X-Api-Key": "k-1", "X-Shop": "mama" } },
      },
    });
    logger.info({ a: { b: { c: { password: 'pa"ss\\word', text: "my PIN is 1234", tokens: 12 } } } });
    const [first, second] = parsed();
    expect(first?.tool).toEqual({
      request: { headers: { Authorization: "[redacted]", "X-Api-Key": "[redacted]", "X-Shop": "mama" } },
    });
    expect(second?.a).toEqual({ b: { c: { password: "[redacted]", text: "[redacted]", tokens: 12 } } });
  });

  it("redacts the configured secrets wherever they appear, and leaves phone numbers and short values", () => {
    const { logger, text, parsed } = capture([APP_SECRET, "short"]);
    logger.info(
      { customer: PHONE, phoneNumberId: "106540352242922", hint: `secret is ${APP_SECRET}!`, word: "short" },
      `from ${PHONE}`,
    );
    expect(text()).not.toContain(APP_SECRET);
    expect(parsed()[0]).toMatchObject({
      customer: PHONE,
      phoneNumberId: "106540352242922",
      hint: "secret is [redacted]!",
      word: "short",
      msg: `from ${PHONE}`,
    });
  });

  it("keeps ordinary words, ids and URLs", () => {
    const { logger, parsed } = capture();
    const fields = {
      url: "https://graph.facebook.com/v25.0/106540352242922/messages",
      backend: "redis redis://127.0.0.1:6379",
      key: "ss-0123456789abcdef0123456789abcdef",
      note: "task-force-management-plan; Bearer of news; EAA short",
      email: "ada@mamaput.example",
    };
    logger.info(fields, "tokens=12 used");
    expect(parsed()[0]).toMatchObject({ ...fields, msg: "tokens=12 used" });
  });
});

describe("logger: sensitive keys whose values are not strings", () => {
  it("censors objects, arrays, numbers and booleans under sensitive keys at every depth, errors included", () => {
    const { logger, parsed } = capture();
    logger.info({
      message: { text: { body: "my PIN is 1234" }, caption: ["a", "b"], id: "w1" },
      deep: { a: { b: { body: { from: "2348012345678" }, kept: 7 } } },
      nested: { token: 42, secret: true, ok: 1 },
    });
    const error = Object.assign(new Error("Graph API refused the send"), {
      body: { error: { message: "recipient 2348012345678" } },
      status: 400,
    });
    logger.error({ err: error }, "send failed");
    const [first, second] = parsed();
    expect(first?.message).toEqual({ text: "[redacted]", caption: "[redacted]", id: "w1" });
    expect(first?.deep).toEqual({ a: { b: { body: "[redacted]", kept: 7 } } });
    expect(first?.nested).toEqual({ token: "[redacted]", secret: "[redacted]", ok: 1 });
    expect(second?.err).toMatchObject({ type: "Error", body: "[redacted]", status: 400 });
    expect(second?.msg).toBe("send failed");
    expect(JSON.stringify([first, second])).not.toContain("2348012345678");
  });

  it("censors objects interpolated into the message (%j, %o, %O), where their keys are escaped", () => {
    const { logger, text, parsed } = capture();
    const message = { type: "text", text: { body: "my PIN is 1234" }, from: "x" };
    logger.info("queued %j", { message });
    logger.warn({ tenant: "t1" }, "send %o then %O", { body: { to: "2348012345678" } }, [
      { caption: "c-9876" },
    ]);
    const cyclic: Record<string, unknown> = { token: "abc" };
    cyclic.self = cyclic;
    logger.info("cycle %j", cyclic);
    for (const secret of ["1234", "2348012345678", "c-9876", "abc"]) expect(text()).not.toContain(secret);
    const [first, second, third] = parsed();
    expect(first?.msg).toBe('queued {"message":{"type":"text","text":"[redacted]","from":"x"}}');
    expect(second).toMatchObject({
      tenant: "t1",
      msg: 'send {"body":"[redacted]"} then [{"caption":"[redacted]"}]',
    });
    expect(third?.msg).toBe("cycle '[redacted]'");
  });

  it("drops a line it cannot read back rather than write it unredacted", () => {
    const redact = createLineRedactor();
    const broken = '{"level":30,"body":{"to":"2348012345678"},"msg":"cut off';
    const out = redact(`${broken}\n`);
    expect(out).not.toContain("2348012345678");
    expect(JSON.parse(out)).toEqual({ level: 50, msg: "a log line could not be redacted and was dropped" });
  });

  it("leaves a line alone when a string inside it only looks like such a key", () => {
    const { logger, parsed } = capture();
    logger.info({ note: 'the payload was {"body":{"x":1}}', count: 3 }, "seen");
    expect(parsed()[0]).toMatchObject({ note: 'the payload was {"body":{"x":1}}', count: 3, msg: "seen" });
  });
});
