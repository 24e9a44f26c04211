import { recipientParts } from "./mime";

/** An address as mail compares it: the part in <…> if any, in lower case ("Maya <Maya@X.org>" → "maya@x.org"). */
export function addressOf(recipient: string): string {
  return recipientParts(recipient).address.toLowerCase();
}

/** The recipients whose address is none of the known ones (each once, as given). */
export function unseenAddresses(recipients: readonly string[], known: readonly string[]): string[] {
  const seen = new Set(known.map(addressOf));
  const unseen = new Map<string, string>();
  for (const recipient of recipients) {
    const address = addressOf(recipient);
    if (address && !seen.has(address) && !unseen.has(address)) unseen.set(address, recipient);
  }
  return [...unseen.values()];
}
