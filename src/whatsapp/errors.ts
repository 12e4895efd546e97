import { type ErrorCatalogEntry, SharpsharpError } from "../errors/index.js";

export const whatsappErrorCatalog = {
  notAnEnvelope: {
    code: "SS_WHATSAPP_NOT_AN_ENVELOPE",
    httpStatus: 400,
    meaning: "The body is JSON but not a WhatsApp Business Account webhook envelope.",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

/** The body parsed as JSON but is not a WhatsApp webhook envelope. */
export class WebhookShapeError extends SharpsharpError {
  constructor(detail: string) {
    super(whatsappErrorCatalog.notAnEnvelope.code, `not a WhatsApp webhook envelope (${detail})`, {
      httpStatus: whatsappErrorCatalog.notAnEnvelope.httpStatus,
    });
  }
}
