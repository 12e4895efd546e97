import { describe, expect, it } from "vitest";
import { FAKE_STRING, schemaInstance } from "./schema-instance.js";

describe("schemaInstance", () => {
  it("fills an object with the plainest valid values: null where allowed", () => {
    expect(
      schemaInstance({
        type: "object",
        properties: {
          isReceipt: { type: "boolean" },
          count: { type: "integer" },
          date: { type: ["string", "null"] },
          amount: {
            anyOf: [{ type: "object", properties: { value: { type: "number" } } }, { type: "null" }],
          },
          kind: { type: "string", enum: ["transfer", "pos"] },
          tags: { type: "array", items: { type: "string" } },
          description: { type: "string" },
          nested: { $ref: "#/$defs/inner" },
        },
        $defs: { inner: { type: "object", properties: { ok: { const: true } } } },
      }),
    ).toEqual({
      isReceipt: false,
      count: 0,
      date: null,
      amount: null,
      kind: "transfer",
      tags: [],
      description: FAKE_STRING,
      nested: { ok: true },
    });
  });
});
