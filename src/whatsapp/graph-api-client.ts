import type { z } from "zod";
import { MediaHostNotAllowedError, UnexpectedResponseError } from "./graph-api-errors.js";
import {
  mediaInfoSchema,
  phoneNumberStandingSchema,
  sendSuccessSchema,
  successFlagSchema,
  uploadSuccessSchema,
} from "./graph-api-schemas.js";
import { graphErrorFromResponse } from "./graph-error-from-response.js";
import {
  createHttpTransport,
  type HttpRequest,
  type HttpResponse,
  type HttpTransport,
} from "./http-transport.js";
import { checkMediaHostSuffixes, DEFAULT_MEDIA_HOST_SUFFIXES, hostMatchesSuffix } from "./media-hosts.js";
import { multipartBody } from "./multipart-body.js";

/** What the client is given: the wire and the clock. */
export interface GraphApiClientDeps {
  /** The wire; default: a keep-alive node:http/https transport owned (and closed) by the client. */
  readonly transport?: HttpTransport;
  /** ms since the epoch; reads Retry-After dates. Default Date.now. */
  readonly now?: () => number;
}

/** Where and as whom the client calls; checked once at creation. */
export interface GraphApiClientOptions {
  /** Graph API root, e.g. `https://graph.facebook.com` (a path prefix is kept). */
  readonly baseUrl: string;
  /** e.g. `v25.0`. */
  readonly version: string;
  /** The tenant's bearer token; never appears in an error message. */
  readonly token: string;
  /** Longest a call may take, connect to last byte, ms. */
  readonly timeoutMs: number;
  /** Largest JSON answer read, bytes; default 1 MiB. */
  readonly maxResponseBytes?: number;
  /**
   * Hosts a media download URL may be on (a suffix matches itself and its
   * subdomains, on a dot boundary), reached over https only; the Graph API
   * base URL's own host is always allowed. Default DEFAULT_MEDIA_HOST_SUFFIXES.
   */
  readonly mediaHostSuffixes?: readonly string[];
}

/** A file to upload with `uploadMedia`. */
export interface MediaUpload {
  readonly bytes: Uint8Array;
  /** Sent as Meta's `type` field and the file part's type, e.g. `image/jpeg`, `audio/ogg; codecs=opus`. */
  readonly mimeType: string;
  readonly fileName: string;
}

/** A Cloud API message body without `messaging_product` (the client adds it): `to` or `recipient`, `type`, `<type>`. */
export type OutboundMessageBody = Readonly<Record<string, unknown>> & { readonly type: string };

/** The customer Meta resolved the send to. */
export interface SendContact {
  /** What we sent as `to` or `recipient`. */
  readonly input: string | undefined;
  readonly waId: string | undefined;
  /** Business-scoped user id, for customers without a phone number. */
  readonly userId: string | undefined;
}

/** Meta accepted the message (accepted, not delivered: statuses follow by webhook). */
export interface SendResult {
  readonly wamid: string;
  /** Undefined if Meta left `contacts` out. */
  readonly contact: SendContact | undefined;
  /** `accepted` or `held_for_quality_assessment` for paced templates; else undefined. */
  readonly messageStatus: string | undefined;
}

/** A media id resolved by `getMediaUrl`. */
export interface MediaInfo {
  /** Download URL, valid about 5 minutes; fetch with `downloadMedia`. */
  readonly url: string;
  readonly mimeType: string;
  readonly sha256: string;
  readonly fileSize: number;
}

/** Meta's Graph API, as sharpsharp calls it. Errors: GraphApiError, TransportError, UnexpectedResponseError, ResponseTooLargeError. */
export interface GraphApiClient {
  sendMessage(phoneNumberId: string, body: OutboundMessageBody): Promise<SendResult>;
  /** Marks `wamid` (and every earlier message of the thread) read; `typing` also shows the typing indicator (25 s). */
  markRead(phoneNumberId: string, wamid: string, options?: { readonly typing?: boolean }): Promise<void>;
  getMediaUrl(mediaId: string, options?: { readonly phoneNumberId?: string }): Promise<MediaInfo>;
  /**
   * The bytes at a `getMediaUrl` URL, at most `maxBytes`. The token is sent only
   * to the Graph API base URL's host or, over https, to a host ending in an allowed
   * suffix (`allowedHostSuffixes`, default the client's `mediaHostSuffixes`); any
   * other URL is refused with MediaHostNotAllowedError before a request is made.
   * `timeoutMs` defaults to the client's.
   */
  downloadMedia(
    url: string,
    options: {
      readonly maxBytes: number;
      readonly timeoutMs?: number;
      readonly allowedHostSuffixes?: readonly string[];
    },
  ): Promise<Buffer>;
  /**
   * Uploads a file (`POST /{phone-number-id}/media`, multipart, with
   * `messaging_product=whatsapp`, `type` and `file`) and returns its media id,
   * usable in sends for 30 days. Meta refuses a wrong MIME type with 131053.
   */
  uploadMedia(
    phoneNumberId: string,
    file: MediaUpload,
    options?: { readonly timeoutMs?: number },
  ): Promise<{ readonly id: string }>;
  /**
   * A business number's standing (`GET /{phone-number-id}?fields=…`): its messaging limit tier
   * (`whatsapp_business_manager_messaging_limit`, e.g. "TIER_2K") and quality rating, as Meta names them.
   */
  getPhoneNumberStanding(phoneNumberId: string): Promise<PhoneNumberStanding>;
  /** Closes the transport if the client created it. */
  close(): Promise<void>;
}

/** What Meta says of a business number's standing. */
export interface PhoneNumberStanding {
  readonly messagingLimitTier?: string;
  readonly qualityRating?: string;
}

function checkOptions(options: GraphApiClientOptions): URL {
  const base = new URL(options.baseUrl);
  if (base.protocol !== "https:" && base.protocol !== "http:") {
    throw new TypeError(`Graph API baseUrl must be http(s), got ${base.protocol}`);
  }
  if (!/^v\d+\.\d+$/.test(options.version)) throw new TypeError("Graph API version must look like v25.0");
  if (options.token.trim() === "") throw new TypeError("Graph API token is empty");
  if (!(options.timeoutMs > 0)) throw new TypeError("Graph API timeoutMs must be positive");
  return base;
}

/**
 * A Graph API client for one token (one tenant). Several clients can share
 * one transport, and so its keep-alive connections.
 */
export function createGraphApiClient(
  deps: GraphApiClientDeps,
  options: GraphApiClientOptions,
): GraphApiClient {
  const base = checkOptions(options);
  const root = `${base.origin}${base.pathname.replace(/\/+$/, "")}/${options.version}`;
  const transport = deps.transport ?? createHttpTransport();
  const now = deps.now ?? Date.now;
  const auth = { authorization: `Bearer ${options.token}` };
  const maxResponseBytes = options.maxResponseBytes ?? 1024 * 1024;
  const mediaHosts = checkMediaHostSuffixes(options.mediaHostSuffixes ?? DEFAULT_MEDIA_HOST_SUFFIXES);
  /** Whether the token may go to `target`: the Graph API's own host, or an allowed host over https. */
  const mayCarryToken = (target: URL, suffixes: readonly string[]): boolean =>
    (target.hostname === base.hostname &&
      (target.protocol === base.protocol || target.protocol === "https:")) ||
    (target.protocol === "https:" && hostMatchesSuffix(target.hostname, suffixes));

  const call = async (spec: Omit<HttpRequest, "timeoutMs" | "maxBytes"> & Partial<HttpRequest>) => {
    const response = await transport.request({
      timeoutMs: options.timeoutMs,
      maxBytes: maxResponseBytes,
      ...spec,
    });
    if (response.status >= 200 && response.status < 300) return response;
    throw graphErrorFromResponse(spec.operation, response, { token: options.token, now });
  };
  const postJson = (operation: string, path: string, body: unknown) =>
    call({
      operation,
      method: "POST",
      url: new URL(`${root}/${path}`),
      headers: { ...auth, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
    });
  const parse = <S extends z.ZodType>(operation: string, response: HttpResponse, schema: S): z.output<S> => {
    let json: unknown;
    try {
      json = JSON.parse(response.body.toString("utf8"));
    } catch {
      throw new UnexpectedResponseError(operation, response.status, "not JSON");
    }
    const parsed = schema.safeParse(json);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const where = issue === undefined ? "" : `${issue.path.join(".") || "(top level)"}: ${issue.message}`;
    throw new UnexpectedResponseError(operation, response.status, where);
  };

  return {
    async sendMessage(phoneNumberId, body) {
      const operation = "send message";
      const response = await postJson(operation, `${encodeURIComponent(phoneNumberId)}/messages`, {
        messaging_product: "whatsapp",
        ...body,
      });
      const data = parse(operation, response, sendSuccessSchema);
      const contact = data.contacts?.[0];
      const message = data.messages[0] as (typeof data.messages)[number];
      return {
        wamid: message.id,
        contact:
          contact === undefined
            ? undefined
            : { input: contact.input, waId: contact.wa_id, userId: contact.user_id },
        messageStatus: message.message_status,
      };
    },

    async markRead(phoneNumberId, wamid, markOptions = {}) {
      const operation = markOptions.typing === true ? "typing indicator" : "mark as read";
      const response = await postJson(operation, `${encodeURIComponent(phoneNumberId)}/messages`, {
        messaging_product: "whatsapp",
        status: "read",
        message_id: wamid,
        ...(markOptions.typing === true ? { typing_indicator: { type: "text" } } : {}),
      });
      parse(operation, response, successFlagSchema);
    },

    async getPhoneNumberStanding(phoneNumberId) {
      const operation = "get phone number";
      const url = new URL(`${root}/${encodeURIComponent(phoneNumberId)}`);
      url.searchParams.set("fields", "whatsapp_business_manager_messaging_limit,quality_rating");
      const response = await call({
        operation,
        method: "GET",
        url,
        headers: { ...auth, accept: "application/json" },
      });
      const data = parse(operation, response, phoneNumberStandingSchema);
      return {
        ...(data.whatsapp_business_manager_messaging_limit === undefined
          ? {}
          : { messagingLimitTier: data.whatsapp_business_manager_messaging_limit }),
        ...(data.quality_rating === undefined ? {} : { qualityRating: data.quality_rating }),
      };
    },

    async getMediaUrl(mediaId, mediaOptions = {}) {
      const operation = "get media url";
      const url = new URL(`${root}/${encodeURIComponent(mediaId)}`);
      if (mediaOptions.phoneNumberId !== undefined) {
        url.searchParams.set("phone_number_id", mediaOptions.phoneNumberId);
      }
      const response = await call({
        operation,
        method: "GET",
        url,
        headers: { ...auth, accept: "application/json" },
      });
      const data = parse(operation, response, mediaInfoSchema);
      return { url: data.url, mimeType: data.mime_type, sha256: data.sha256, fileSize: data.file_size };
    },

    async downloadMedia(url, downloadOptions) {
      const operation = "download media";
      const target = new URL(url);
      const suffixes =
        downloadOptions.allowedHostSuffixes === undefined
          ? mediaHosts
          : checkMediaHostSuffixes(downloadOptions.allowedHostSuffixes);
      if (target.username !== "" || target.password !== "" || !mayCarryToken(target, suffixes)) {
        throw new MediaHostNotAllowedError(operation, target.host, target.protocol);
      }
      const response = await call({
        operation,
        method: "GET",
        url: target,
        headers: auth,
        maxBytes: downloadOptions.maxBytes,
        timeoutMs: downloadOptions.timeoutMs ?? options.timeoutMs,
      });
      return response.body;
    },

    async uploadMedia(phoneNumberId, file, uploadOptions = {}) {
      const operation = "upload media";
      const { body, contentType } = await multipartBody(
        { messaging_product: "whatsapp", type: file.mimeType },
        { field: "file", bytes: file.bytes, mimeType: file.mimeType, fileName: file.fileName },
      );
      const response = await call({
        operation,
        method: "POST",
        url: new URL(`${root}/${encodeURIComponent(phoneNumberId)}/media`),
        headers: { ...auth, "content-type": contentType, accept: "application/json" },
        body,
        timeoutMs: uploadOptions.timeoutMs ?? options.timeoutMs,
      });
      return { id: parse(operation, response, uploadSuccessSchema).id };
    },

    async close() {
      if (deps.transport === undefined) await transport.close();
    },
  };
}
