import { describe, expect, it } from "vitest";
import { refusal } from "./refusal.test-support.js";
import { validateChatRequest } from "./validate-chat-request.js";

const strictSchema = {
  type: "object",
  additionalProperties: false,
  required: ["ok", "amount"],
  properties: {
    ok: { type: "boolean" },
    amount: {
      anyOf: [
        {
          type: "object",
          additionalProperties: false,
          required: ["value"],
          properties: { value: { type: "number" } },
        },
        { type: "null" },
      ],
    },
  },
};

function asking(responseFormat: unknown, text = "hi") {
  return { model: "m", messages: [{ role: "user", content: text }], response_format: responseFormat };
}

describe("response_format, as OpenAI checks it", () => {
  it("reads a strict json_schema with its name", () => {
    const request = validateChatRequest(
      asking({ type: "json_schema", json_schema: { name: "reading", schema: strictSchema, strict: true } }),
    );
    expect(request.responseFormat).toEqual({
      type: "json_schema",
      name: "reading",
      schema: strictSchema,
      strict: true,
    });
  });

  it("refuses a strict schema that leaves a property out of required, or allows extra properties", () => {
    const loose = { ...strictSchema, required: ["ok"] };
    expect(
      refusal(asking({ type: "json_schema", json_schema: { name: "reading", schema: loose, strict: true } })),
    ).toMatchObject({ param: "response_format", code: "invalid_json_schema" });
    const nested = structuredClone(strictSchema);
    delete (nested.properties.amount.anyOf[0] as { additionalProperties?: boolean }).additionalProperties;
    const error = refusal(
      asking({ type: "json_schema", json_schema: { name: "reading", schema: nested, strict: true } }),
    );
    expect(error.message).toContain(
      "In context=('properties', 'amount', 'anyOf', '0'), 'additionalProperties'",
    );
    // Without strict, OpenAI takes the schema as it is.
    expect(
      validateChatRequest(asking({ type: "json_schema", json_schema: { name: "reading", schema: loose } }))
        .responseFormat,
    ).toMatchObject({ strict: false });
  });

  it("needs a valid name, a known type, and the word json for json_object", () => {
    expect(
      refusal(asking({ type: "json_schema", json_schema: { name: "a b", schema: strictSchema } })).param,
    ).toBe("response_format.json_schema.name");
    expect(refusal(asking({ type: "json_schema" })).param).toBe("response_format.json_schema");
    expect(refusal(asking({ type: "yaml" })).param).toBe("response_format.type");
    expect(refusal(asking({ type: "json_object" })).param).toBe("messages");
    expect(validateChatRequest(asking({ type: "json_object" }, "answer in JSON")).responseFormat).toEqual({
      type: "json_object",
    });
  });
});
