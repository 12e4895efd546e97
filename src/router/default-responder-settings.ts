/**
 * The first responder's default tenant configuration, replies in English, Pidgin, Yoruba, Hausa and Igbo,
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
          "^(hi+|hello+|hey+|hallo|helo|how far|howfa|how far o|good (morning|afternoon|evening)|morning|evening|wetin dey|how you dey|how una dey|e ka ?a+ro|e ka ?a+san|e ka ?a+le|e ku ?a+ro|e ku ?ile|bawo( ni)?|e n le|sannu( da zuwa)?|ina kwana|ina wuni|barka da (safiya|rana|yamma|asuba)|(as)?salamu alaikum|ndewo|nnoo|kedu|ututu oma|ehihie oma|mgbede oma)( (o|oo|sir|ma|boss|bros|sis|dear|una|there|all|nne|nna|oga|yallabai|maama|baba))?$",
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
  // NATIVE SPEAKERS SHOULD REVIEW the Yoruba (yo), Hausa (ha) and Igbo (ig) texts below: the project
  // wrote them, plainly and politely, but no native speaker has checked them yet.
  // No default reply for money matters (failed_transaction, transfer_money, card_issue…): an intent without a
  // tenant reply goes to the agent, and a canned answer about someone's money must be the tenant's own words.
  replies: {
    greeting: {
      text: {
        en: "Hello! 👋 What can we do for you today? Tell us in your own words.",
        pcm: "Hello! How far? 👋 Wetin we fit do for you today? Tell us in your own words.",
        yo: "Ẹ n lẹ́ o! 👋 Kí la lè ṣe fún yín lónìí? Ẹ sọ fún wa ní ọ̀rọ̀ ara yín.",
        ha: "Sannu! 👋 Me za mu iya yi maka yau? Faɗa mana da kalmominka.",
        ig: "Ndewo! 👋 Gịnị ka anyị ga-emere gị taa? Gwa anyị n'okwu nke gị.",
      },
      buttons: [{ id: "talk_to_human", title: "Talk to a person" }],
    },
    thanks_goodbye: {
      text: {
        en: "You're welcome! Thank you for reaching out. We are here anytime you need us. 🙏",
        pcm: "You're welcome! Thank you for reaching out. Anytime you need us, we dey here. 🙏",
        yo: "Ẹ ṣé o! A dúpẹ́ pé ẹ kàn sí wa. A wà níbí nígbàkúùgbà tí ẹ bá nílò wa. 🙏",
        ha: "Babu komai! Mun gode da ka tuntuɓe mu. Muna nan a duk lokacin da kake buƙatar mu. 🙏",
        ig: "Ọ dịghị nsogbu! Daalụ maka ịkpọtụrụ anyị. Anyị nọ ebe a mgbe ọ bụla ịchọrọ anyị. 🙏",
      },
    },
    talk_to_human: {
      handoff: true,
      text: {
        en: "No problem, I have called a person for you. Someone from our team will reply to you here shortly.",
        pcm: "No wahala, I don call person for you. Somebody from our team go reply you here shortly.",
        yo: "Kò sí wàhálà, mo ti pe ẹnìkan fún yín. Ẹnìkan láti ẹgbẹ́ wa yóò dá yín lóhùn níbí láìpẹ́.",
        ha: "Ba matsala, na kira maka mutum. Wani daga ƙungiyarmu zai ba ka amsa a nan ba da daɗewa ba.",
        ig: "Ọ dịghị nsogbu, akpọọla m mmadụ maka gị. Onye otu anyị ga-aza gị ebe a n'oge na-adịghị anya.",
      },
    },
  },
  fallback: {
    text: {
      en: "Thank you for your message! Please give us a little time; someone from our team will get back to you soon.",
      pcm: "Thank you for your message! Abeg give us small time, somebody from our team go get back to you soon.",
      yo: "A dúpẹ́ fún ìfiránṣẹ́ yín! Ẹ fún wa ní àkókò díẹ̀, ẹnìkan láti ẹgbẹ́ wa yóò padà sí yín láìpẹ́.",
      ha: "Mun gode da saƙonka! Ka ba mu ɗan lokaci, wani daga ƙungiyarmu zai dawo maka ba da jimawa ba.",
      ig: "Daalụ maka ozi gị! Biko nye anyị obere oge, onye otu anyị ga-alaghachikwute gị n'oge na-adịghị anya.",
    },
  },
  stale: {
    text: {
      en: "Sorry for the late reply, it was a network problem on our side. If you still need help, please send your message again and we will answer quickly.",
      pcm: "Sorry for the late reply, na network wahala from our side. If you still need help, abeg send your message again and we go answer you sharp sharp.",
      yo: "Ẹ má bínú fún ìdáhùn tó pẹ́, ìṣòro nẹ́tíwọ̀ọ̀kì ni láti ọ̀dọ̀ wa. Tí ẹ bá ṣì nílò ìrànlọ́wọ́, ẹ jọ̀ọ́ ẹ tún ìfiránṣẹ́ yín rán, a ó sì dáhùn kíákíá.",
      ha: "Yi haƙuri da jinkirin amsa, matsalar sadarwa ce daga ɓangarenmu. Idan har yanzu kana buƙatar taimako, don Allah sake aiko da saƙonka, za mu amsa da sauri.",
      ig: "Ndo maka azịza ahụ gbara ụka, ọ bụ nsogbu netwọk n'akụkụ anyị. Ọ bụrụ na ị ka chọrọ enyemaka, biko zigharịa ozi gị, anyị ga-aza gị ngwa ngwa.",
    },
  },
} as const;
