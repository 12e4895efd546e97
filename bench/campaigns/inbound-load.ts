import { Pool } from "undici";
import { signatureFor } from "../../src/ingress/index.js";

/** A customer the campaign reached: the template's wamid at the fake Graph API, and when. */
export interface ReachedCustomer {
  readonly customer: string;
  readonly wamid: string;
  readonly at: number;
}

/** One inbound message the bench posted. */
export interface InboundSent {
  readonly customer: string;
  /** When the webhook left, ms since the epoch (the fake Graph API's clock: this process's). */
  readonly sentAt: number;
}

export interface InboundLoadOptions {
  readonly webhookUrl: string;
  readonly appSecret: string;
  readonly phoneNumberId: string;
  readonly displayPhoneNumber: string;
  readonly wabaId: string;
  /** Messages per second offered. */
  readonly rate: number;
  /** A customer writes again no sooner than this, ms (their replies then never meet the pair limit). */
  readonly gapMs: number;
  /** Customers reached since the last call. */
  readonly newlyReached: () => readonly ReachedCustomer[];
}

export interface InboundSummary {
  readonly sent: readonly InboundSent[];
  /** Webhooks the gateway did not answer 200. */
  readonly non200: number;
  /** What the gateway answered the first webhook it refused, for the report. */
  readonly firstFailure?: string;
  /** Messages due while no reached customer was free to write (before the campaign reached enough). */
  readonly unoffered: number;
  readonly startedAt: number;
  readonly stoppedAt: number;
}

const TEXTS = [
  "How far, I see the sale message. How much be the sneakers?",
  "Good afternoon, abeg the promo still dey?",
  "Hello, I wan order two. How I go pay?",
  "Abeg una dey deliver go Ikeja?",
  "Thank you. When the sale go end?",
];

interface Writer {
  readonly customer: string;
  readonly quoted: string | undefined;
  readonly eligibleAt: number;
}

/**
 * Open-loop inbound traffic from customers a campaign already reached: message i is due at
 * start + i/rate, from the customer free to write the longest (a customer writes again only
 * `gapMs` later). A customer's first message quotes the template (`context.id`, as WhatsApp does
 * when one replies to it), so it counts as a reply to the campaign. A message due when nobody is
 * free is not sent and is counted as unoffered.
 */
export function startInboundLoad(options: InboundLoadOptions) {
  const pool = new Pool(new URL(options.webhookUrl).origin, { connections: 64, pipelining: 1 });
  const path = new URL(options.webhookUrl).pathname;
  // Two queues, each in the order its writers become free: newly reached, and those who wrote.
  const fresh: Writer[] = [];
  const again: Writer[] = [];
  let freshHead = 0;
  let againHead = 0;
  const sent: InboundSent[] = [];
  const inFlight = new Set<Promise<void>>();
  let non200 = 0;
  let unoffered = 0;
  let firstFailure: string | undefined;
  let stopped = false;
  const startedAt = Date.now();
  let scheduled = 0;

  const pick = (now: number): Writer | undefined => {
    const a = fresh[freshHead];
    const b = again[againHead];
    const first = a !== undefined && (b === undefined || a.eligibleAt <= b.eligibleAt) ? a : b;
    if (first === undefined || first.eligibleAt > now) return undefined;
    if (first === a) freshHead += 1;
    else againHead += 1;
    return first;
  };

  const post = (writer: Writer, n: number) => {
    const now = Date.now();
    const message = {
      from: writer.customer,
      id: `wamid.bench.campaign.in.${startedAt}.${n}`,
      timestamp: String(Math.floor(now / 1000)),
      type: "text",
      text: { body: TEXTS[n % TEXTS.length] },
      ...(writer.quoted === undefined
        ? {}
        : { context: { from: options.displayPhoneNumber, id: writer.quoted } }),
    };
    const body = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [
        {
          id: options.wabaId,
          changes: [
            {
              field: "messages",
              value: {
                messaging_product: "whatsapp",
                metadata: {
                  display_phone_number: options.displayPhoneNumber,
                  phone_number_id: options.phoneNumberId,
                },
                contacts: [
                  { profile: { name: `Customer ${writer.customer.slice(-4)}` }, wa_id: writer.customer },
                ],
                messages: [message],
              },
            },
          ],
        },
      ],
    });
    sent.push({ customer: writer.customer, sentAt: now });
    const request: Promise<void> = pool
      .request({
        path,
        method: "POST",
        body,
        headers: {
          "content-type": "application/json",
          "x-hub-signature-256": signatureFor(Buffer.from(body), options.appSecret),
        },
      })
      .then(async (response) => {
        if (response.statusCode === 200) await response.body.dump();
        else {
          non200 += 1;
          firstFailure ??= `${response.statusCode} ${(await response.body.text()).slice(0, 300)}`;
        }
      })
      .catch((error: unknown) => {
        non200 += 1;
        firstFailure ??= String(error);
      })
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
    again.push({ customer: writer.customer, quoted: undefined, eligibleAt: now + options.gapMs });
  };

  const tick = () => {
    if (stopped) return;
    const now = Date.now();
    for (const reached of options.newlyReached()) {
      fresh.push({ customer: reached.customer, quoted: reached.wamid, eligibleAt: reached.at });
    }
    const due = Math.floor(((now - startedAt) * options.rate) / 1000);
    while (scheduled < due) {
      const writer = pick(now);
      if (writer === undefined) unoffered += 1;
      else post(writer, scheduled);
      scheduled += 1;
    }
    // Consumed heads are dropped now and then, so a long run's queues stay small.
    if (freshHead > 4096) {
      fresh.splice(0, freshHead);
      freshHead = 0;
    }
    if (againHead > 4096) {
      again.splice(0, againHead);
      againHead = 0;
    }
    setTimeout(tick, 10);
  };
  setTimeout(tick, 10);

  return {
    /** Messages posted so far. */
    sentCount: () => sent.length,
    /** Stops sending and waits for the webhooks in flight. */
    async stop(): Promise<InboundSummary> {
      stopped = true;
      const stoppedAt = Date.now();
      await Promise.all([...inFlight]);
      await pool.close();
      return {
        sent,
        non200,
        ...(firstFailure === undefined ? {} : { firstFailure }),
        unoffered,
        startedAt,
        stoppedAt,
      };
    },
  };
}
