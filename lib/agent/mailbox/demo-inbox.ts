/**
 * The demo mailbox's first contents: a small, realistic inbox dated relative to when it is made,
 * so "my latest email" and "this week" mean something. Addresses use example.com (RFC 2606).
 */
import type { NewDemoMail } from "@/db/queries/demo-mail";

export const DEMO_OWN_ADDRESS = "you@demo.lifeline.example.com";

const HOUR = 3_600_000;

interface SeedMail {
  from: string;
  to?: string[];
  subject: string;
  body: string;
  hoursAgo: number;
  labels: string[];
}

const INBOX: SeedMail[] = [
  {
    from: "Maya Chen <maya.chen@example.com>",
    subject: "Dinner on Friday?",
    body: "Hi! Are you free for dinner on Friday at 7:30? I was thinking of the new Lebanese place on Rua Augusta — they have lots of vegetarian dishes. Let me know and I'll book a table.\n\nMaya",
    hoursAgo: 3,
    labels: ["INBOX", "UNREAD", "IMPORTANT"],
  },
  {
    from: "Tom Becker <tom.becker@example.com>",
    subject: "Bouldering Saturday morning",
    body: "Hey, the gym opens at 9 on Saturday. Want to go at 10 and grab coffee after? I can bring the spare chalk bag.\n\nTom",
    hoursAgo: 20,
    labels: ["INBOX", "UNREAD"],
  },
  {
    from: "Priya Natarajan <priya@northwind.example.com>",
    subject: "Q3 report: draft due next Thursday",
    body: "Hi,\n\nQuick reminder that the Q3 report draft is due next Thursday. Could you send me the churn numbers and the two customer quotes by Tuesday so I can review them?\n\nThanks,\nPriya",
    hoursAgo: 28,
    labels: ["INBOX", "IMPORTANT", "Work"],
  },
  {
    from: "Harbour Lettings <lettings@harbour-homes.example.com>",
    subject: "Your lease renewal",
    body: "Dear tenant,\n\nYour lease ends on 31 January. Please confirm by 15 December whether you wish to renew for another 12 months at the new monthly rent of €1,450.\n\nKind regards,\nHarbour Lettings",
    hoursAgo: 50,
    labels: ["INBOX"],
  },
  {
    from: "TAP Air Portugal <no-reply@flytap.example.com>",
    subject: "Booking confirmed: Lisbon → Berlin, 12 December",
    body: "Your booking is confirmed. Flight TP 540 departs Lisbon at 08:35 on 12 December and arrives in Berlin at 12:55. Check-in opens 36 hours before departure.",
    hoursAgo: 75,
    labels: ["INBOX", "Travel"],
  },
  {
    from: "Maya Chen <maya.chen@example.com>",
    subject: "Photos from the hike",
    body: "Here are the photos from Sintra! The one at the top of the Pena trail is my favourite. Also — Mum's birthday is on the 18th, shall we get her something together?",
    hoursAgo: 98,
    labels: ["INBOX"],
  },
  {
    from: "Dr. Silva's Clinic <appointments@clinic.example.com>",
    subject: "Appointment reminder: dental check-up",
    body: "This is a reminder of your dental check-up on Wednesday at 16:00. Reply to this email if you need to reschedule.",
    hoursAgo: 120,
    labels: ["INBOX"],
  },
  {
    from: "GitHub <notifications@github.example.com>",
    subject: "[lifeline] Pull request #42 was merged",
    body: "Your pull request 'Retrieval: explain near-misses in the debug view' was merged into main.",
    hoursAgo: 140,
    labels: ["INBOX"],
  },
  {
    from: "The Weekly Byte <newsletter@weeklybyte.example.com>",
    subject: "This week: vector databases, explained",
    body: "In this issue: how HNSW indexes work, when exact search is fast enough, and five tips for better embeddings.",
    hoursAgo: 170,
    labels: ["INBOX"],
  },
  {
    from: "Ines Moreau <ines.moreau@example.com>",
    subject: "Conference talk accepted!",
    body: "Great news — your talk 'Memory you can inspect' was accepted for the February conference. Slides are due by 20 January.",
    hoursAgo: 200,
    labels: ["INBOX", "STARRED"],
  },
  {
    from: DEMO_OWN_ADDRESS,
    to: ["Tom Becker <tom.becker@example.com>"],
    subject: "Re: Climbing shoes",
    body: "Thanks for the tip, I ordered the half size up.",
    hoursAgo: 220,
    labels: ["SENT"],
  },
  {
    from: DEMO_OWN_ADDRESS,
    to: ["Priya Natarajan <priya@northwind.example.com>"],
    subject: "Churn numbers",
    body: "Hi Priya, I'll have the churn numbers ready by Tuesday.",
    hoursAgo: 26,
    labels: ["SENT", "Work"],
  },
];

export function demoInbox(now: Date): NewDemoMail[] {
  return INBOX.map((mail) => ({
    fromAddress: mail.from,
    toAddresses: mail.to ?? [DEMO_OWN_ADDRESS],
    subject: mail.subject,
    body: mail.body,
    labels: mail.labels,
    sentAt: new Date(now.getTime() - mail.hoursAgo * HOUR),
  }));
}
