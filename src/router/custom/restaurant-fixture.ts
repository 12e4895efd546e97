/**
 * A restaurant tenant's `menu` intent and phrasings held out from it, written
 * before the trainer's settings were chosen (tests and the bench script
 * measure on these; nothing trains on the held-out lists).
 */
export const MENU_EXAMPLES: readonly string[] = [
  "wetin una get for menu",
  "send me your menu",
  "una get jollof?",
  "abeg send menu",
  "what's on the menu today",
  "can I see the menu please",
  "wetin una dey sell today",
  "which food una get now",
  "menu and prices abeg",
  "how much be jollof rice",
  "do you have fried rice today",
  "una get pepper soup?",
  "wetin dey for lunch today",
  "show me wetin una cook today",
  "price list for food abeg",
  "I wan see una food list",
  "what food do you have",
  "e jowo, ki lo wa lori menu yin",
  "don Allah wane abinci kuke da shi yau",
  "biko gini ka unu nwere na menu",
];

/** Menu questions in other words (never trained on). */
export const HELD_OUT_MENU: readonly string[] = [
  "abeg wetin una cook today",
  "una get amala today?",
  "send me the price of your food",
  "menu please",
  "what are you selling today",
  "how much is your fried rice",
  "una dey sell small chops?",
  "which soup una get today",
  "can you send your food menu",
  "I want to see your menu",
  "wetin una get for dinner",
  "do you sell shawarma",
  "abeg how much be plate of rice",
  "food list abeg",
  "what's available to eat now",
  "una get beans and plantain?",
  "show me your menu abeg",
  "today menu?",
  "wetin dey menu tonight",
  "ki le n ta loni",
];

/** Routine banking messages a restaurant's menu must not answer. */
export const HELD_OUT_BANKING: readonly string[] = [
  "my transfer never enter",
  "abeg check my balance",
  "I sent 5k since morning and e never reach",
  "how I go take buy airtime",
  "my card don block",
  "send me my account statement",
  "I wan pay my DSTV",
  "una dey give loan?",
  "debit alert but the money no reach",
  "how do I transfer to another bank",
  "wetin be my account balance",
  "buy 1GB data for me",
  "my ATM card swallow for machine",
  "abeg reverse my money",
  "NEPA bill payment abeg",
];

/** Chatter and needs-agent messages that mention food or the menu without asking for it. */
export const HELD_OUT_NOT_MENU: readonly string[] = [
  "the jollof una send yesterday spoil, I want my money back",
  "my order never reach since 2 hours",
  "una rider rude me well well",
  "I no happy with the food at all",
  "good morning",
  "thank you so much",
  "I wan talk to person",
  "where una shop dey",
  "what time una dey close",
  "I paid for food but una never send am",
  "this bot no dey understand anything, menu menu every time",
  "Happy new year to all of una",
  "arsenal go win today",
  "the menu said two pieces of chicken, I got one",
  "cancel my order abeg",
];
