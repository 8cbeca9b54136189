// The page's own few words. Everything about the game arrives from the bot already in the member's
// language; these are only what the page says before the bot is reached or about its connection.
// The bot speaks English, German and French, so the page does too; any other language reads English.
const WORDS = {
  en: {
    signingIn: "Signing in…",
    connected: "Connected",
    reconnecting: "Reconnecting…",
    forYou: "For you only",
    dismiss: "Dismiss",
    send: "Send",
    noGame: "No game in this channel yet: start one with /kabuki new, /masks new or /kingdom new.",
    lobby: "Lobby",
    playing: "Playing",
    you: "you",
    computer: "computer",
    watching: "You are watching",
    member: "member",
    channel: "channel",
    notSent: "Not connected: that press was not sent. Try again in a moment.",
    unreachable: "I could not reach the table. Close the Activity and open it again.",
    notAllowed: "Discord did not let this page sign you in. Close the Activity and open it again.",
    closed: "The table closed this page. Close the Activity and open it again.",
  },
  de: {
    signingIn: "Anmeldung …",
    connected: "Verbunden",
    reconnecting: "Verbindung wird wiederhergestellt …",
    forYou: "Nur für dich",
    dismiss: "Ausblenden",
    send: "Senden",
    noGame: "In diesem Kanal läuft noch kein Spiel: starte eins mit /kabuki new, /masks new oder /kingdom new.",
    lobby: "Lobby",
    playing: "Läuft",
    you: "du",
    computer: "Computer",
    watching: "Du schaust zu",
    member: "Mitglied",
    channel: "Kanal",
    notSent: "Keine Verbindung: das wurde nicht gesendet. Versuch es gleich noch einmal.",
    unreachable: "Ich erreiche den Tisch nicht. Schließ die Aktivität und öffne sie erneut.",
    notAllowed: "Discord hat diese Seite dich nicht anmelden lassen. Schließ die Aktivität und öffne sie erneut.",
    closed: "Der Tisch hat diese Seite geschlossen. Schließ die Aktivität und öffne sie erneut.",
  },
  fr: {
    signingIn: "Connexion…",
    connected: "Connecté",
    reconnecting: "Reconnexion…",
    forYou: "Pour vous seul",
    dismiss: "Masquer",
    send: "Envoyer",
    noGame: "Aucune partie dans ce salon : lancez-en une avec /kabuki new, /masks new ou /kingdom new.",
    lobby: "Salle d’attente",
    playing: "En cours",
    you: "vous",
    computer: "ordinateur",
    watching: "Vous regardez",
    member: "membre",
    channel: "salon",
    notSent: "Pas de connexion : ce choix n’a pas été envoyé. Réessayez dans un instant.",
    unreachable: "Je n’arrive pas à joindre la table. Fermez l’activité et rouvrez-la.",
    notAllowed: "Discord n’a pas laissé cette page vous connecter. Fermez l’activité et rouvrez-la.",
    closed: "La table a fermé cette page. Fermez l’activité et rouvrez-la.",
  },
};

/** The words for a BCP 47 tag such as "de", "de-AT" or "en-US". */
export function wordsFor(locale) {
  const language = String(locale || "").toLowerCase().split(/[-_]/)[0];
  return WORDS[language] ?? WORDS.en;
}
