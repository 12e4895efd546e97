import type { z } from "zod";
import type { CustomerIdentity } from "./inbound-types.js";
import type { contactSchema, messageBaseSchema } from "./webhook-schema.js";

type MessageBase = z.output<typeof messageBaseSchema>;
type Contact = z.output<typeof contactSchema>;

/** A wa_id is the customer's number, digits only (E.164 without "+"): anything else is no address. */
const WA_ID = /^\d{1,15}$/;
/** A BSUID: country code, dot, optional `ENT.` (a parent id), then alphanumerics (docs/whatsapp-cloud-api.md §11). */
const USER_ID = /^[A-Z]{2}\.(?:ENT\.)?[A-Za-z0-9]{1,128}$/;

const asWaId = (value: unknown) => (typeof value === "string" && WA_ID.test(value) ? value : undefined);
const asUserId = (value: unknown) => (typeof value === "string" && USER_ID.test(value) ? value : undefined);

function contactOf(message: MessageBase, contacts: readonly Contact[]): Contact | undefined {
  // Contacts are matched by id, never by array position (docs/whatsapp-cloud-api.md §2.3)…
  const matched = contacts.find(
    (candidate) =>
      (message.from !== undefined && candidate.wa_id === message.from) ||
      (message.from !== undefined && candidate.user_id === message.from) ||
      (message.from_user_id !== undefined && candidate.user_id === message.from_user_id),
  );
  if (matched !== undefined) return matched;
  // …except a message naming nobody beside exactly one contact known only by a BSUID: a customer with a
  // username and no number (§11), whose message Meta has sent without `from_user_id`.
  const namesNobody = message.from === undefined && message.from_user_id === undefined;
  const only = contacts.length === 1 ? contacts[0] : undefined;
  return namesNobody && only?.wa_id === undefined && only?.user_id !== undefined ? only : undefined;
}

/** A system notice without `from` names the customer in its own object (the new number or user id). */
function systemIds(message: MessageBase): { waId?: string; userId?: string } {
  if (message.type !== "system") return {};
  const system = (message as Record<string, unknown>).system as Record<string, unknown> | undefined;
  const waId = asWaId(system?.wa_id);
  const userId = asUserId(system?.user_id);
  return { ...(waId === undefined ? {} : { waId }), ...(userId === undefined ? {} : { userId }) };
}

/**
 * Who wrote, from `from`, `from_user_id`, the matching contact and, failing
 * those, a system notice's ids. `waId` is only ever digits and `userId` only a
 * well-formed BSUID, so a reply is never addressed to what happened to be in
 * `from`: a BSUID in `from` counts as the user id, and anything else is kept
 * as `rawId`, which names the conversation but is never an address.
 */
export function customerOf(message: MessageBase, contacts: readonly Contact[]): CustomerIdentity {
  const contact = contactOf(message, contacts);
  const system = systemIds(message);
  const waId = asWaId(message.from) ?? asWaId(contact?.wa_id) ?? system.waId;
  const userId =
    asUserId(message.from_user_id) ??
    asUserId(message.from) ??
    asUserId(contact?.user_id) ??
    asUserId(contact?.wa_id) ??
    system.userId;
  const parentUserId = message.from_parent_user_id ?? contact?.parent_user_id;
  const rawId = message.from ?? contact?.wa_id ?? contact?.user_id;
  const identity: Record<string, string> = {};
  if (waId !== undefined) identity.waId = waId;
  if (userId !== undefined) identity.userId = userId;
  if (parentUserId !== undefined) identity.parentUserId = parentUserId;
  if (waId === undefined && userId === undefined && rawId !== undefined && rawId !== "")
    identity.rawId = rawId;
  if (contact?.profile?.name !== undefined) identity.name = contact.profile.name;
  if (contact?.profile?.username !== undefined) identity.username = contact.profile.username;
  return identity;
}

/** The id a conversation is keyed by: the number, else the BSUID, else whatever named the sender. */
export function customerIdOf(customer: CustomerIdentity): string | undefined {
  return customer.waId ?? customer.userId ?? customer.rawId;
}
