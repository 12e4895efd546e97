/**
 * What docs/guarantees.md promises for one raw webhook message, read from the
 * payload in plain terms (not through the parser under test): whether it is
 * recorded, and whether, and to whom, it is answered.
 */

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value !== null && typeof value === "object" ? (value as Json) : {});
const str = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
const WA_ID = /^\d{1,15}$/;
const BSUID = /^[A-Z]{2}\.(?:ENT\.)?[A-Za-z0-9]{1,128}$/;
const NEVER_ANSWERED_TYPES = new Set(["reaction", "edit", "revoke", "system"]);

export interface RawMessage {
  readonly message: Json;
  readonly phoneNumberId: string;
  readonly displayNumber: string;
  readonly contacts: readonly Json[];
}

/** Every `messages[]` item of every `messages` change, with what its change says. */
export function rawMessagesOf(body: unknown): RawMessage[] {
  const entries = Array.isArray(obj(body).entry) ? (obj(body).entry as unknown[]) : [];
  return entries.flatMap((entry) => {
    const changes = Array.isArray(obj(entry).changes) ? (obj(entry).changes as unknown[]) : [];
    return changes.flatMap((change) => {
      if (obj(change).field !== "messages") return [];
      const value = obj(obj(change).value);
      const metadata = obj(value.metadata);
      const contacts = Array.isArray(value.contacts) ? value.contacts.map(obj) : [];
      const messages = Array.isArray(value.messages) ? value.messages : [];
      return messages.map((message) => ({
        message: obj(message),
        phoneNumberId: String(metadata.phone_number_id ?? ""),
        displayNumber: String(metadata.display_phone_number ?? "").replace(/\D/g, ""),
        contacts,
      }));
    });
  });
}

/** Every `statuses[]` item of every `messages` change. */
export function rawStatusesOf(body: unknown): Json[] {
  const entries = Array.isArray(obj(body).entry) ? (obj(body).entry as unknown[]) : [];
  return entries.flatMap((entry) =>
    (Array.isArray(obj(entry).changes) ? (obj(entry).changes as unknown[]) : []).flatMap((change) => {
      const statuses = obj(obj(change).value).statuses;
      return obj(change).field === "messages" && Array.isArray(statuses) ? statuses.map(obj) : [];
    }),
  );
}

/** The customer's ids: from the message, its contact, or (for a system notice) the notice. */
function idsOf(raw: RawMessage): {
  readonly waId?: string;
  readonly userId?: string;
  readonly named: boolean;
} {
  const { message, contacts } = raw;
  const from = str(message.from);
  const fromUserId = str(message.from_user_id);
  const contact =
    contacts.find(
      (c) =>
        (from !== undefined && (c.wa_id === from || c.user_id === from)) ||
        (fromUserId !== undefined && c.user_id === fromUserId),
    ) ??
    (from === undefined &&
    fromUserId === undefined &&
    contacts.length === 1 &&
    contacts[0]?.wa_id === undefined
      ? contacts[0]
      : undefined);
  const system = message.type === "system" ? obj(message.system) : {};
  const candidates = [from, str(contact?.wa_id), str(system.wa_id)];
  const waId = candidates.find((id) => id !== undefined && WA_ID.test(id));
  const userId = [fromUserId, from, str(contact?.user_id), str(contact?.wa_id), str(system.user_id)].find(
    (id) => id !== undefined && BSUID.test(id),
  );
  const named = [...candidates, fromUserId, str(contact?.user_id), str(system.user_id)].some(
    (id) => id !== undefined,
  );
  return { ...(waId === undefined ? {} : { waId }), ...(userId === undefined ? {} : { userId }), named };
}

export interface Expectation {
  readonly wamid: string | undefined;
  readonly recorded: boolean;
  /** Where the one reply goes, or undefined when it is never answered. */
  readonly replyTo?: { readonly to: string } | { readonly recipient: string };
}

/**
 * Recorded: an id, a Unix-seconds timestamp and someone named as the sender.
 * Answered: recorded, one-to-one, not a reaction, edit, revoke or system
 * notice, addressed by a wa_id (digits) or else a BSUID, and not our own number.
 */
export function expectationOf(raw: RawMessage): Expectation {
  const { message } = raw;
  const wamid = str(message.id);
  const timestamp = message.timestamp;
  const timed =
    (typeof timestamp === "string" && /^\d{1,10}$/.test(timestamp)) ||
    (typeof timestamp === "number" && Number.isInteger(timestamp) && timestamp >= 0);
  const ids = idsOf(raw);
  const recorded = wamid !== undefined && timed && typeof message.type === "string" && ids.named;
  if (!recorded) return { wamid, recorded };
  const subtype = obj(message.unsupported).type;
  const silent =
    NEVER_ANSWERED_TYPES.has(String(message.type)) ||
    (message.type === "unsupported" && (subtype === "edit" || subtype === "revoke")) ||
    message.group_id !== undefined;
  const ours =
    ids.waId !== undefined &&
    ids.userId === undefined &&
    [raw.phoneNumberId, raw.displayNumber].includes(ids.waId);
  if (silent || ours) return { wamid, recorded };
  // The queued reply holds the wa_id; the sender adds the "+" (send-reply.ts).
  if (ids.waId !== undefined) return { wamid, recorded, replyTo: { to: ids.waId } };
  if (ids.userId !== undefined) return { wamid, recorded, replyTo: { recipient: ids.userId } };
  return { wamid, recorded };
}
