/** Fills gaps and never guesses: what it cannot read yields nothing. */

import { capitalize } from "@/core/text";
import type { MemoryType } from "@/db/schema";
import { DATE_EXPRESSION_SOURCE, resolveDateExpression } from "./date-expressions";
import { thirdPersonVerb, withoutOwnPossessive } from "./grammatical-person";
import { valueKind } from "./slot-reader";
import { conceptsOf, isStopword } from "./text-features";
import { attributeClasses, CLASS_TITLES, RELATION_WORDS, topicalWords } from "./topic";

export interface GeneralStatement {
  type: MemoryType;
  title: string;
  content: string;
  importance: number;
  confidence: number;
  isActionable: boolean;
  deadline: string | null;
}

const NOT_A_FACT =
  /(?<!\b(?:since|in|by|until|from|of|early|late|mid|last|next|this|through)\s)\bmay\b(?!\s+\d)|\b(?:will|would|could|should|might|must|shall|gonna|going to|about to|want|wants|wanted|wish|hope|hoping|plan|planning|thinking (?:of|about)|considering|tempted|maybe|perhaps|probably|someday|one day|if|unless|whether|used to|try|trying|need to|have to|has to|got to|couldn't|wouldn't|shouldn't|didn't|wasn't|weren't|won't|yet|barely|hardly|scarcely)\b|\b(?:i|we)'(?:d|ll)\b|\b(?:never|not)\s+(?:\S+\s+)?\p{L}+ed\b/iu;
/** An obligation with a date is a deadline, not a plan: "My visa renewal has to be in by December 18th". */
const OBLIGATION = /\b(?:has to|have to|must|needs to|need to|is due|are due|due|deadline|expires?|ends?|runs? out)\b/i;
const CONVERSATION =
  /\b(?:remember|forget|forgot|told you|tell you|mentioned|asked|ask you|said|wonder|wondering|guess|mean|curious|confused|get back to you|let you know|you|your)\b/i;
const COGNITION_VERB =
  /^(?:like|love|enjoy|adore|hate|dislike|prefer|think|know|guess|mean|believe|suppose|reckon|bet|agree|disagree|see|understand|feel|promise|apologi[sz]e|appreciate|admit|doubt|hear|expect|imagine|assume|realise|realize|say|tell|ask|thank|need|hope|want|wish|plan|get|got it)\b/i;
const PASSING_STATE =
  /^(?:(?:so|very|really|a bit|a little|pretty|quite|kind of|sort of|super|just|all|too)\s+)*(?:tired|sleepy|exhausted|hungry|thirsty|bored|busy|sick|ill|unwell|stressed|excited|happy|glad|sad|sorry|fine|good|ok|okay|great|well|alright|back|here|there|ready|done|curious|confused|lost|late|early|free|off|home|up|awake|nervous|worried|anxious|annoyed|frustrated|thrilled|upset|grateful|thankful|sure|unsure|not sure|right|wrong|kidding|joking|serious|in|out|on my way|around|stuck|fed up|over it|knackered|shattered|swamped|starving|freezing|cold|hot|away|out of office)\b/i;
/** A simple past with one of these is a fact about the user now; any other simple past is an episode. */
const STATE_CHANGE =
  /(?:^|\band\s+)(?:moved|relocated|emigrated|left|quit|sold|bought|adopted|married|divorced|joined|started|retired|became|switched|swapped|traded in|traded\s+(?:\S+\s+){1,3}?for\s|converted|gave up|stopped|cancell?ed|split up|broke up|separated|called it (?:a day|quits) with|parted ways|went (?:our|their) separate ways|graduated|signed|handed in|walked away|cut out|took up|dropped out|enrolled|finished|passed|lost my job|(?:got|was) (?:stolen|written off|totalled|repossessed)|got (?:married|engaged|divorced|promoted|hired|fired|sacked|laid off|diagnosed|accepted|certified|licensed|a (?:new )?(?:job|place|flat(?! tyre| tire)|house|apartment|dog|cat|puppy|kitten|car)|my (?:licen[cs]e|degree|diploma|citizenship))|was (?:promoted|hired|fired|let go|laid off|diagnosed|made redundant))\b/i;
const PAST_VERB =
  /^(?:\p{L}{2,}ed|got|sold|left|quit|took|had|made|went|became|began|bought|found|gave|hung|cut|won|lost|met|split|broke|signed|swapped|spent|ran|came|saw|did|felt|kept|paid|put|wrote|drove|flew|fell|grew|knew|threw|wore|ate|drank|sang|swam|rode|caught|taught|thought|brought|built|sent|sat|stood|held|heard|told|said|read|led|fed|bit|hit|set|shut|let|been)\b/iu;
/** Verbs of possession and habit, the only ones whose denial is kept ("I don't own a car any more"). */
const HABIT_VERB =
  /^(?:own|have|drive|smoke|drink|eat|use|play|wear|take|keep|run|ride|cycle|bike|cook|work|live|speak|watch|read|go|do)$/i;
const CHOICE =
  /\b(?:always|usually|never|tend to|go for|opt for|choose|pick|stick (?:to|with)|rather|a (?:\p{L}+ )?person|prefer)\b/iu;
const HEALTH =
  /\b(?:allerg\p{L}*|intoleran\p{L}*|diagnosed|asthma|diabet\p{L}*|migraines?|arthritis|epilep\p{L}*|celiac|coeliac|adhd|autis\p{L}*|pregnant|blind|deaf|disabled)\b/iu;
const DATE_IN_TEXT = new RegExp(
  `\\b(?:(?:by|on|before|until|due|no later than|for)\\s+)?(${DATE_EXPRESSION_SOURCE})\\b`,
  "i",
);
/** A clause that is only a frame of time or reason, kept out of the content ("Took a while"). */
const EMPTY_PREDICATE = /^(?:took (?:a while|ages|forever|some time)|it(?:'s| is| was)?\b|that(?:'s| is| was)?\b)/i;

const SUBJECT =
  /^(?:(i|we)|(i'm|im|i am|we're|we are)|(i've|i have|we've|we have)|(\p{Lu}[\p{L}'-]*) and (?:i|me)|(?:my|our) ([\p{L} -]{2,30}?)(?='s\s|\s+(?:is|are|has|have|got|was|needs?|expires?|ends?|runs? out)\b)|the ([\p{L} -]{2,30}?)(?=\s+(?:has to|have to|needs? to|must|is due|are due|expires?|runs? out)\b))\s+/iu;

function predicateOf(statement: string):
  | {
      predicate: string;
      form: "simple" | "copula" | "perfect" | "elided" | "owned";
      thing?: string;
      definite?: boolean;
    }
  | undefined {
  const subject = SUBJECT.exec(statement);
  if (!subject) return PAST_VERB.test(statement) ? { predicate: statement, form: "elided" } : undefined;
  const rest = statement.slice(subject[0].length).trim();
  // "My visa …", "Our fixed rate …", and "The council tax appeal has to …" (the user's obligation).
  if (subject[5] || subject[6]) {
    const thing = (subject[5] ?? subject[6] ?? "").trim();
    if (new RegExp(`(?:^|\\s)(?:${RELATION_WORDS})$`, "i").test(thing)) return undefined;
    return { predicate: rest, form: "owned", thing, definite: subject[6] !== undefined };
  }
  if (subject[4]) {
    // "Chloe and I got engaged" → "Got engaged to Chloe"; "Daniel and I split up" → "Split up with Daniel".
    const tail = /\b(?:engaged|married)$/i.test(rest.replace(/\s+(?:last|this|in|on|over)\b.*$/i, "")) ? "to" : "with";
    const when = /\s+((?:last|this|in|on|over|during|back in)\b.*)$/i.exec(rest);
    const core = when ? rest.slice(0, when.index) : rest;
    return { predicate: `${core} ${tail} ${subject[4]}${when ? ` ${when[1]}` : ""}`, form: "elided" };
  }
  if (subject[2]) return { predicate: rest, form: "copula" };
  if (subject[3]) return { predicate: rest, form: "perfect" };
  return { predicate: rest, form: "simple" };
}

function contentOf(
  predicate: string,
  form: "simple" | "copula" | "perfect" | "elided" | "owned",
  thing?: string,
): string | undefined {
  switch (form) {
    case "owned":
      return `${capitalize(thing ?? "")} ${predicate}`;
    case "copula":
      return `Is ${predicate}`;
    case "perfect": {
      // "I've got twin daughters" → "Has twin daughters"; "I've quit smoking" → "Has quit smoking".
      const got = /^got\s+(.+)$/i.exec(predicate);
      return `Has ${got?.[1] ?? predicate}`;
    }
    case "elided":
      return capitalize(predicate);
    case "simple": {
      const negated = /^(?:don't|do not|dont|no longer)\s+(\p{L}+)\s*(.*)$/iu.exec(predicate);
      if (negated?.[1] && HABIT_VERB.test(negated[1])) {
        const rest = (negated[2] ?? "").replace(/\s+any ?more$/i, "");
        return `No longer ${thirdPersonVerb(negated[1])}${rest ? ` ${rest}` : ""}`;
      }
      if (/^(?:don't|do not|dont|no longer|didn't|did not|never|can't|cannot|won't)\b/i.test(predicate))
        return undefined;
      const [verb = "", ...rest] = predicate.split(/\s+/);
      if (PAST_VERB.test(verb)) return capitalize(predicate);
      if (
        /^(?:always|usually|often|never|sometimes|mostly|generally|normally|still|also|just|only|really|mainly)$/i.test(
          verb,
        ) &&
        rest[0]
      )
        return `${capitalize(verb.toLowerCase())} ${thirdPersonVerb(rest[0])}${rest.length > 1 ? ` ${rest.slice(1).join(" ")}` : ""}`;
      return `${capitalize(thirdPersonVerb(verb))}${rest.length ? ` ${rest.join(" ")}` : ""}`;
    }
  }
}

function titleOf(content: string, type: MemoryType): string {
  const words = content
    .replace(/^\S+\s+/, "")
    .split(/[^\p{L}\p{N}'-]+/u)
    .filter(
      (w) =>
        w.length > 1 &&
        !isStopword(w.toLowerCase()) &&
        !/^(?:no|longer|one|two|three|four|five|six|seven|eight|nine|ten|\p{L}+-year-old|old|years?|properly|already|officially|finally|full|time|last|week|month|spring|summer|autumn|fall|winter|days?|\d+\S*)$/iu.test(
          w,
        ),
    );
  const about = conceptsOf(content).find((c) => !["preference", "aversion", "goal", "todo", "age"].includes(c));
  if (type === "preference") return about ? `${capitalize(about)} preference` : "Preference";
  const attribute = [...attributeClasses(content)][0];
  if (attribute) return CLASS_TITLES[attribute];
  const topical = new Set(topicalWords(content));
  const head = words.find((w) => topical.has(w.toLowerCase())) ?? words[0];
  return about ? capitalize(about) : head ? capitalize(head) : "About the user";
}

function personal(title: string, content: string, type: MemoryType = "personal"): GeneralStatement {
  return { type, title, content, importance: 0.7, confidence: 0.7, isActionable: false, deadline: null };
}

/** The doer must be a name that is not a person or a place. */
const OBJECT_ME =
  /^(?!(?:They|He|She|We|You|It|Everyone|Someone|Nobody)\b)(\p{Lu}[\p{L}\d&.'-]*(?:\s+\p{Lu}[\p{L}\d&.'-]*){0,2})\s+(let me go|laid me off|fired me|sacked me|made me redundant|hired me|promoted me|took me on)\b(.*)$/u;
const OBJECT_ME_PASSIVE: Readonly<Record<string, string>> = {
  "let me go": "Was let go by",
  "laid me off": "Was laid off by",
  "fired me": "Was fired by",
  "sacked me": "Was fired by",
  "made me redundant": "Was made redundant by",
  "hired me": "Was hired by",
  "promoted me": "Was promoted by",
  "took me on": "Was hired by",
};
function readObjectMe(text: string): GeneralStatement | undefined {
  const match = OBJECT_ME.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  if (["person", "place"].includes(valueKind(match[1]))) return undefined;
  return personal("Workplace", `${OBJECT_ME_PASSIVE[match[2].toLowerCase()]} ${match[1]}`);
}

const THING_OVER =
  /^the ([\p{L}-]+(?:\s+[\p{L}-]+)?) (?:thing|phase) (?:is|'s) (?:over|done|finished|history|behind me|not true any ?more|no longer true)\b|^the ([\p{L}-]+(?:\s+[\p{L}-]+)?) (?:thing|phase) (?:isn't|is not) (?:true|happening|a thing) any ?more\b/iu;
function readThingOver(text: string): GeneralStatement | undefined {
  const match = THING_OVER.exec(text);
  const thing = (match?.[1] ?? match?.[2])?.toLowerCase();
  return thing ? personal(capitalize(thing), `No longer does the ${thing} thing`) : undefined;
}

function readAge(text: string, sentence: string): GeneralStatement | undefined {
  const hyphenated =
    /^(?:(?:i'm|im|i am)\s+)?(?:(?:officially|now|finally|already|just)\s+)?an?\s+(\d{1,3})-year-old\b(?=\s*$|\s+(?:as of|since|now|today|already)\b|,)/iu.exec(
      text,
    ) ?? /^(?:i'm|im|i am)\s+(?:(?:officially|now|finally|already|just)\s+)?an?\s+(\d{1,3})-year-old\b/iu.exec(text);
  const afterBirthday = /\bmy birthday\b/i.test(sentence)
    ? /(?:^|,\s*)(\d{1,3})(?:\s+(?:already|now|today|years old))?\s*$/i.exec(text)
    : undefined;
  const value = Number(hyphenated?.[1] ?? afterBirthday?.[1] ?? Number.NaN);
  return value >= 1 && value <= 120 ? personal("Age", `Is ${value} years old`) : undefined;
}

/** Being somewhere is a home only beside a change in the same sentence: "I'm in Paris" alone may be a trip. */
function readPresence(text: string, sentence: string): GeneralStatement | undefined {
  const match =
    /^(?:[Ii]'m|[Ii]m|[Ii] am|[Ww]e're|[Ww]e are)\s+(not\s+|no longer\s+)?(?:(?:now|down|up|over|out|back|still|based)\s+)*in\s+(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*){0,2})(\s+any ?more)?$/u.exec(
      text,
    );
  if (!match?.[2] || valueKind(match[2]) === "organisation" || valueKind(match[2]) === "person") return undefined;
  if (match[1] || match[3])
    return match[1] && match[3] ? personal("Home", `No longer lives in ${match[2]}`) : undefined;
  if (!/\b(?:any ?more|no longer|moved|left|relocated)\b/i.test(sentence)) return undefined;
  return personal("Home", `Lives in ${match[2]}`);
}

/** A reminder request beside a dated clause ("…, don't let me forget") makes that clause the user's event. */
export function readUserStatement(
  statement: string,
  sentence: string,
  currentDate: string,
): GeneralStatement | undefined {
  const text = statement
    .replace(/^\p{L}+ly,\s+/u, "")
    .replace(
      /^(?:finally|just|recently|eventually|officially)\s+(?=\p{L}+ed\b|sold\b|got\b|quit\b|left\b|gave\b)/iu,
      "",
    )
    .replace(/\s+/g, " ")
    .trim();
  if (text.length === 0 || text.split(" ").length > 25) return undefined;
  const special = readObjectMe(text) ?? readThingOver(text) ?? readAge(text, sentence) ?? readPresence(text, sentence);
  if (special) return special;
  const reminded = /\b(?:don't|do not) let me forget\b|\bremind me\b/i.test(sentence) && !/\bremind me\b/i.test(text);
  const parsed = predicateOf(text) ?? (reminded ? { predicate: text, form: "elided" as const } : undefined);
  if (!parsed) return undefined;
  const { predicate, form, thing } = parsed;
  if (predicate.length === 0 || EMPTY_PREDICATE.test(predicate)) return undefined;
  // A verb whose object only points elsewhere ("Started there in October") says nothing on its own.
  if (
    /^(?:\S+\s+){0,2}?(?:there|it|them|that|this)\b(?:\s+(?:in|on|at|last|this|since)\b.*)?$/i.test(
      predicate.replace(/^(?:just|also|then)\s+/i, ""),
    ) &&
    !/^(?:got|have|has)\s/i.test(predicate)
  )
    return undefined;

  const dateMatch = DATE_IN_TEXT.exec(predicate);
  const deadline = dateMatch?.[1] ? (resolveDateExpression(dateMatch[1], currentDate) ?? null) : null;
  const dated = deadline !== null && deadline >= currentDate;
  const obligation = dated && (OBLIGATION.test(predicate) || reminded);
  if (!obligation && NOT_A_FACT.test(predicate)) return undefined;
  // "The appeal has to go in within two weeks" is the user's deadline; "The meeting is due to start" is not a fact of theirs.
  if (parsed.definite && !obligation) return undefined;
  if (CONVERSATION.test(predicate) && !reminded) return undefined;

  const [verb = ""] = predicate.split(/\s+/);
  if (
    form === "simple" &&
    COGNITION_VERB.test(predicate.replace(/^(?:don't|do not|dont|really|just|also|still)\s+/i, ""))
  )
    return undefined;
  if (
    (form === "copula" || (form === "owned" && /^(?:is|are)\s/i.test(predicate))) &&
    (PASSING_STATE.test(predicate.replace(/^(?:(?:is|are)\s+)?(?:not|no longer)\s+/i, "")) ||
      /^(?:\p{L}+ing)\b/iu.test(predicate) ||
      /^(?:(?:is|are)\s+)?(?:(?:not|no longer|still|now|down|up|over|out|back)\s+)*(?:in|on|at|with|off|into|from|near|by|under|outside|inside)\b/i.test(
        predicate,
      ))
  )
    return undefined;

  // A change of state ("Sold the Corolla") is durable, a past episode ("Had a steak last night") is not.
  // Cancelling ends a membership or named service, not a plan ("Cancelled the trip to Rome").
  if (
    /^(?:(?:just|finally)\s+)?cancell?ed\s/i.test(predicate) &&
    !/^(?:(?:[Jj]ust|[Ff]inally)\s+)?[Cc]ancell?ed\s+(?:(?:my|our|the)\s+)?(?:\p{Lu}|[^,;]*\b(?:membership|subscription|account|contract|policy)\b)/u.test(
      predicate,
    )
  )
    return undefined;
  const past =
    form === "elided" ||
    (form === "simple" && PAST_VERB.test(verb)) ||
    (form === "owned" && /^(?:got|was)$/i.test(verb));
  if (
    past &&
    !obligation &&
    !reminded &&
    !STATE_CHANGE.test(predicate.replace(/^(?:just|finally|recently|officially|properly|also)\s+/i, ""))
  )
    return undefined;

  const written = contentOf(predicate, form, thing);
  if (!written) return undefined;
  let content = written
    .replace(/,\s*(?:honestly|frankly|seriously|really|tbh|lol|haha)\b,?/gi, ",")
    .replace(/,\s*(?:(?:please\s+)?(?:don't|do not) let me forget|(?:please\s+)?remind me)\b.*$/i, "")
    .replace(/[\s,;:]+$/, "");
  if (obligation && dateMatch?.[0])
    content = content.replace(
      dateMatch[0],
      `${/^due\b/i.test(dateMatch[0]) ? "due on" : /^(?:by|before|until|within)\b/i.test(dateMatch[0]) ? "by" : "on"} ${deadline}`,
    );
  // Something must be said besides the verb and when: "Started on Monday", "Plays every Sunday" are not memories.
  // (For "my <thing> …" the first word is the thing: "Essay is due on …" says something.)
  const said = topicalWords(content.replace(DATE_IN_TEXT, " ").replace(form === "owned" ? /^/ : /^\S+\s*/, "")).filter(
    (w) => !/^(?:every|each|day|night|morning|evening|weekend|today|tonight|tomorrow|yesterday|\p{L}+day)$/u.test(w),
  );
  if (said.length === 0) return undefined;
  const type: MemoryType = obligation
    ? reminded && !OBLIGATION.test(predicate)
      ? "event"
      : "actionable"
    : HEALTH.test(predicate)
      ? "fact"
      : CHOICE.test(text)
        ? "preference"
        : "personal";
  return {
    type,
    title:
      type === "actionable" || type === "event"
        ? capitalize(withoutOwnPossessive(thing ?? titleOf(content, type)))
        : titleOf(content, type),
    content,
    importance: type === "actionable" || type === "event" ? 0.8 : 0.6,
    confidence: 0.7,
    isActionable: type === "actionable",
    deadline: obligation ? deadline : null,
  };
}
