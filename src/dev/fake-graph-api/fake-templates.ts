/** The approved templates every fake business account has, in Meta's list shape. */
export const FAKE_TEMPLATES = [
  {
    name: "conversation_followup",
    language: "en",
    status: "APPROVED",
    category: "UTILITY",
    id: "1000000000000001",
    components: [
      { type: "BODY", text: "Hello {{1}}, we are following up on your message. Reply to continue." },
    ],
  },
  {
    name: "order_update",
    language: "en",
    status: "APPROVED",
    category: "UTILITY",
    id: "1000000000000002",
    components: [{ type: "BODY", text: "Your order {{1}} is {{2}}." }],
  },
  {
    name: "flash_sale",
    language: "en",
    status: "PENDING",
    category: "MARKETING",
    id: "1000000000000003",
    components: [{ type: "BODY", text: "Flash sale today!" }],
  },
] as const;

/** `GET /{version}/{waba-id}/message_templates`: the templates list, with the bearer token, as Meta's. */
