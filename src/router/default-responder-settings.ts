/**
 * The first responder's default tenant configuration, in English and Pidgin,
 * used for every field a tenant's settings leave out (see docs/router.md, "First
 * responder"). Rules prefer precision to coverage: a greeting rule matches a
 * message that is only a greeting, so "hello, my transfer failed" falls
 * through to the fallback rather than getting a cheerful canned welcome.
 */
export const DEFAULT_RESPONDER_SETTINGS = {
  router: {
    rules: [
      {
        match:
          "^(hi+|hello+|hey+|hallo|helo|how far|howfa|how far o|good (morning|afternoon|evening)|morning|evening|wetin dey|how you dey|how una dey)( (o|oo|sir|ma|boss|bros|sis|dear|una|there|all))?$",
        intent: "greeting",
      },
      {
        match:
          "^((ok(ay)? )?(thank(s| you)( (so|very) much)?|tanks|thank u|thx|tnx|e se|ese|nagode|daalu|bye|goodbye|bye bye|god bless( you)?|na gode)( (o|oo|sir|ma|boss|a lot|plenty))?)$",
        intent: "thanks_goodbye",
      },
      {
        match:
          "\\b((talk|speak|chat) (to|with) (a |one )?(human|person|agent|somebody|someone|customer (care|service))|real person|human agent|customer (care|service)|i want (to talk to )?(a )?(human|person|agent))\\b",
        intent: "talk_to_human",
      },
    ],
  },
  replies: {
    greeting: {
      text: "Hello! How far? 👋 Wetin we fit do for you today? Tell us in your own words.",
      buttons: [{ id: "talk_to_human", title: "Talk to a person" }],
    },
    thanks_goodbye: {
      text: "You're welcome! Thank you for reaching out. Anytime you need us, we dey here. 🙏",
    },
    talk_to_human: {
      handoff: true,
      text: "No wahala, I don call person for you. Somebody from our team go reply you here shortly.",
    },
  },
  fallback: {
    text: "Thank you for your message! Abeg give us small time, somebody from our team go get back to you soon.",
  },
  stale: {
    text: "Sorry for the late reply, na network wahala from our side. If you still need help, abeg send your message again and we go answer you sharp sharp.",
  },
} as const;
