import type { ConversationStateStore, HistoryEntry } from "../../conversation/index.js";
import type { InboundMessage } from "../../whatsapp/index.js";
import type { DetectedLanguage } from "../detect-language.js";
import type { ResponderSettings } from "../responder-settings.js";
import { extractSlots, type RouterSlots, SLOT_TOKENS } from "../slots.js";
import type { RouteResult } from "../tiers/route-result.js";
import { localizeRoute, readTurn } from "./localize-route.js";

/** History entry types the bot writes about its own asks (the agent's prompt reads only text/reply entries). */
export const ASKED_ENTRY = "router_asked";
export const ANSWERED_ENTRY = "router_answered";

/** An ask older than this is forgotten: the customer came back about something new. */
export const ASK_REMEMBERED_MS = 30 * 60_000;
/** How far back in the history an ask is looked for (asks are recorded during the turn, so they are recent). */
const LOOKBACK_ENTRIES = 20;

export interface AskRecord {
  readonly intent: string;
  readonly slots: RouterSlots;
  /** The language the bot asked in: a bare "0123456789" answer says nothing of its own. */
  readonly language?: DetectedLanguage | undefined;
}

function parseRecord(entry: HistoryEntry): AskRecord | undefined {
  if (entry.text === undefined) return undefined;
  try {
    const record = JSON.parse(entry.text) as Partial<AskRecord>;
    return typeof record.intent === "string"
      ? { intent: record.intent, slots: record.slots ?? {}, language: record.language }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The bot's memory of the slots it asked for, kept in the conversation's
 * history (no new store): the slots already given when it asked, so the next
 * turn can complete them, or knows it must not ask again.
 */
export interface AskMemory {
  /** The slots known when the bot last asked for `intent`, if that ask is recent and was not answered since. */
  lastAsk(conversationKey: string, intent: string, now: number): Promise<RouterSlots | undefined>;
  /** The newest ask of any intent, if recent and not answered since. */
  latestAsk(conversationKey: string, now: number): Promise<AskRecord | undefined>;
  remember(
    conversationKey: string,
    entry: "asked" | "answered",
    record: AskRecord,
    now: number,
  ): Promise<void>;
}

export function historyAskMemory(state: ConversationStateStore, rememberedMs = ASK_REMEMBERED_MS): AskMemory {
  return {
    async lastAsk(conversationKey, intent, now) {
      const recent = await state.recent(conversationKey, LOOKBACK_ENTRIES);
      for (let index = recent.length - 1; index >= 0; index -= 1) {
        const entry = recent[index] as HistoryEntry;
        if (entry.type !== ASKED_ENTRY && entry.type !== ANSWERED_ENTRY) continue;
        const record = parseRecord(entry);
        if (record?.intent !== intent) continue;
        if (entry.type === ANSWERED_ENTRY || now - entry.at > rememberedMs) return undefined;
        return record.slots;
      }
      return undefined;
    },
    async latestAsk(conversationKey, now) {
      const recent = await state.recent(conversationKey, LOOKBACK_ENTRIES);
      for (let index = recent.length - 1; index >= 0; index -= 1) {
        const entry = recent[index] as HistoryEntry;
        if (entry.type !== ASKED_ENTRY && entry.type !== ANSWERED_ENTRY) continue;
        if (entry.type === ANSWERED_ENTRY || now - entry.at > rememberedMs) return undefined;
        return parseRecord(entry);
      }
      return undefined;
    },
    async remember(conversationKey, kind, record, now) {
      await state.append(conversationKey, [
        {
          at: now,
          from: "bot",
          type: kind === "asked" ? ASKED_ENTRY : ANSWERED_ENTRY,
          text: JSON.stringify(kind === "asked" ? record : { intent: record.intent }),
        },
      ]);
    },
  };
}

/**
 * Asks for missing slots once per intent. A turn whose reply would ask:
 * - first time: asks, and remembers the slots it had;
 * - the bot asked for this intent recently: the slots given then and now
 *   together; complete, the reply confirms them; still missing, the turn
 *   goes to the agent (the fallback) instead of asking twice.
 * Costs one history read, and only on turns whose reply would ask. The memory
 * failing (store down) must not fail the turn: the reply asks again.
 */
export async function askOnce(
  settings: ResponderSettings,
  routed: RouteResult,
  conversationKey: string,
  memory: AskMemory,
  now: number,
  onError: (error: unknown) => void = () => {},
): Promise<RouteResult> {
  const { asked, intent } = routed;
  if (asked === undefined || intent === undefined) return routed;
  try {
    const earlier = await memory.lastAsk(conversationKey, intent, now);
    if (earlier === undefined) {
      await memory.remember(
        conversationKey,
        "asked",
        { intent, slots: asked.slots, language: asked.language },
        now,
      );
      return routed;
    }
    const merged = localizeRoute(settings, routed, {
      language: asked.language,
      slots: { ...earlier, ...asked.slots },
    });
    if (merged.tier === "fallback" || merged.asked !== undefined)
      return localizeRoute(settings, { ...routed, intent: undefined, tier: "fallback" }, asked);
    await memory.remember(conversationKey, "answered", { intent, slots: {} }, now);
    return merged;
  } catch (error) {
    onError(error);
    return routed;
  }
}

/** Words besides the slots a message may have and still be only an answer ("na 0123456789", "acct no: …"). */
const MAX_ANSWER_WORDS = 3;
const SLOT_TOKEN_SET: ReadonlySet<string> = new Set(Object.values(SLOT_TOKENS));

/** True when the text is little more than slot values: an answer to the bot's question, nothing new. */
function onlySlots(text: string): boolean {
  const { text: rest } = extractSlots(text.normalize("NFKC").toLowerCase());
  const words = rest.split(/[^\p{L}\p{N}_]+/u).filter((word) => word !== "" && !SLOT_TOKEN_SET.has(word));
  return words.length <= MAX_ANSWER_WORDS;
}

/**
 * The customer's answer to the bot's question: a turn nothing else answered
 * (the fallback) that brings a slot the bot asked for, and either says little
 * else ("0123456789") or reads, below the answering threshold, as the asked
 * intent ("my transfer never enter, account na 0123456789"). With the slots
 * given before it completes the asked reply, which then confirms them; still
 * incomplete, it stays with the agent (asked once). Costs a history read only
 * on fallback turns that carry a slot.
 */
export async function answerToAsk(
  settings: ResponderSettings,
  routed: RouteResult,
  messages: readonly InboundMessage[],
  conversationKey: string,
  memory: AskMemory,
  now: number,
  onError: (error: unknown) => void = () => {},
): Promise<RouteResult> {
  if (routed.tier !== "fallback") return routed;
  const reading =
    routed.decision === undefined ? readTurn(messages, undefined) : { slots: routed.decision.slots };
  const given = Object.keys(reading.slots);
  if (given.length === 0) return routed;
  try {
    const text = messages.flatMap((message) => (message.text === undefined ? [] : [message.text])).join("\n");
    const earlier = await memory.latestAsk(conversationKey, now);
    if (earlier === undefined) return routed;
    const template = settings.templates[earlier.intent];
    if (template === undefined) return routed;
    const answers = template.needs.some((slot) => given.includes(slot) && !(slot in earlier.slots));
    const decision = routed.decision;
    const sameIntent = decision?.intent === earlier.intent;
    // A short message the classifier resolved to another intent ("check my balance 0123…") asks something else.
    const otherRequest = decision?.resolved === true && !sameIntent;
    if (!answers || otherRequest || (!sameIntent && !onlySlots(text))) return routed;
    const language = earlier.language ?? decision?.language;
    const completed = localizeRoute(
      settings,
      { ...routed, intent: earlier.intent, tier: "follow_up" },
      { language, slots: { ...earlier.slots, ...reading.slots } },
    );
    if (completed.tier === "fallback" || completed.asked !== undefined) return routed;
    await memory.remember(conversationKey, "answered", { intent: earlier.intent, slots: {} }, now);
    return completed;
  } catch (error) {
    onError(error);
    return routed;
  }
}
