import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, maskConversationKey, maskCustomerId } from "./logger.js";

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger({ level: "debug", destination }) };
}

describe("logger", () => {
  it("redacts secrets and message text wherever they are nested", () => {
    const { lines, logger } = capture();
    logger.info(
      { tenant: { appSecret: "s3cr3t", id: "t1" }, message: { text: "my PIN is 1234" }, token: "EAAG" },
      "x",
    );
    const line = lines.join("");
    expect(line).not.toContain("s3cr3t");
    expect(line).not.toContain("1234");
    expect(line).not.toContain("EAAG");
    expect(line).toContain('"id":"t1"');
  });

  it("masks phone numbers and business-scoped ids", () => {
    expect(maskCustomerId("2348012345678")).toBe("234*******678");
    expect(maskCustomerId("NG.4815162342108765432")).toBe("NG.****************432");
    expect(maskCustomerId("12345")).toBe("*****");
    expect(maskConversationKey("default:106540352242922:2348012345678")).toBe(
      "default:106540352242922:234*******678",
    );
  });
});
