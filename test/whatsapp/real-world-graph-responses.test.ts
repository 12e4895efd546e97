import { describe, expect, it } from "vitest";
import { classifySendError, type SendDecision } from "../../src/outbound/index.js";
import {
  createGraphApiClient,
  GraphApiError,
  type HttpResponse,
  UnexpectedResponseError,
} from "../../src/whatsapp/index.js";
import { graphResponseFiles, realWorldFolder, recordedStatuses } from "../support/real-world-fixtures.js";

const folder = realWorldFolder();

/**
 * What a failed send should become, from docs/whatsapp-cloud-api.md §7.2 and
 * docs/guarantees.md ("What a failed send means"), independent of the code.
 */
function expectedDecision(error: GraphApiError): Partial<SendDecision> {
  const code = error.graphCode;
  const details = `${error.details ?? ""} ${error.message}`;
  if (code === 131053 && /http code 429|too many requests/i.test(details)) return { action: "retry" };
  if (code !== undefined && [4, 613, 80007, 130429, 131056].includes(code)) return { action: "wait" };
  if (code !== undefined && [1, 2, 131000, 131016, 131057, 133004].includes(code)) return { action: "retry" };
  if (code === 190) return { action: "give_up", pauseTenant: true };
  if (code === 368) return { action: "give_up", pauseNumber: true };
  if (code === 131047) return { action: "give_up", reengage: true };
  if (code === undefined)
    return { action: error.status >= 500 ? "retry" : error.status === 429 ? "wait" : "give_up" };
  return { action: error.isTransient ? "retry" : "give_up" };
}

function clientAnswering(response: HttpResponse) {
  return createGraphApiClient(
    { transport: { request: async () => response, close: async () => {} } },
    { baseUrl: "https://graph.example.test", version: "v25.0", token: "t", timeoutMs: 1000 },
  );
}

const SEND = { type: "text", text: { body: "x" } } as const;

/** Which call a success body answers, read from its shape. */
async function checkSuccess(body: Record<string, unknown>, client: ReturnType<typeof clientAnswering>) {
  if (Array.isArray(body.messages)) {
    expect((await client.sendMessage("1", SEND)).wamid).toMatch(/\S/);
  } else if (body.success === true) {
    await expect(client.markRead("1", "wamid.x")).resolves.toBeUndefined();
  } else if (typeof body.url === "string") {
    expect((await client.getMediaUrl("1")).url).toMatch(/^https:/);
  } else {
    // A body no call of ours takes (an upload's `{id}`): as a send's answer it is unexpected, never a crash.
    await expect(client.sendMessage("1", SEND)).rejects.toBeInstanceOf(UnexpectedResponseError);
  }
}

// Each body as the Graph API client would receive it, through its real parsing: success bodies resolve,
// error bodies (including ones that are not JSON) become a GraphApiError that classifies as Meta documents.
describe.skipIf(folder.root === undefined)(
  `real-world Graph API responses${folder.root === undefined ? ` (${folder.skipReason})` : ""}`,
  () => {
    const root = folder.root ?? "";
    const files = folder.root === undefined ? [] : graphResponseFiles(root);
    const statuses = folder.root === undefined ? new Map<string, number>() : recordedStatuses(root);

    it("finds the bodies", () => {
      expect(files.length).toBeGreaterThan(0);
    });

    it.each(files.map((file) => [file.name, file] as const))("%s", async (name, file) => {
      const base = name.slice(name.lastIndexOf("/") + 1);
      let json: Record<string, unknown> | undefined;
      try {
        json = JSON.parse(file.bytes.toString("utf8")) as Record<string, unknown>;
      } catch {
        json = undefined;
      }
      // An error object kept without its envelope (as a webhook carries it) is answered inside one.
      const inner = json !== undefined && json.error === undefined && typeof json.code === "number";
      const body = inner ? Buffer.from(JSON.stringify({ error: json })) : file.bytes;
      const isError = json === undefined || json.error !== undefined || inner;
      const status = statuses.get(base) ?? (isError ? 400 : 200);
      const client = clientAnswering({ status, headers: {}, body });

      if (status >= 200 && status < 300) {
        await checkSuccess(json ?? {}, client);
        return;
      }
      const error = await client.sendMessage("1", SEND).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(GraphApiError);
      const graph = error as GraphApiError;
      if (json !== undefined) {
        const code = (inner ? json.code : (json.error as Record<string, unknown>).code) as number | undefined;
        expect(graph.graphCode).toBe(code);
      }
      const decision = classifySendError(graph, { attempt: 1, unknownOutcomeRetried: false });
      expect(decision).toMatchObject(expectedDecision(graph));
    });
  },
);
