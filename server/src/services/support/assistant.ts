import { DOCUMENTATION_SECTIONS, type DocSection } from '../../../../shared/content/documentation';
import { FAQ_CATEGORIES, type FaqCategory } from '../../../../shared/content/faq';
import type { ChatMessageInput } from '../../../../shared/schemas/support';

// The built-in support assistant (no outbound call): retrieval over the product's own FAQ and
// documentation with BM25, answering with the best FAQ answer or a documentation excerpt plus a link.

const STOPWORDS = new Set(
  ('a an and are as at be been but by can could do does did for from has have how i if in into is it its me my of on or our ' +
    'please so that the their them then there these they this to us was we were what when where which who why will with ' +
    'would you your yours about any some just tell know want need get got im i\'m ive there\'s whats what\'s hi hello hey ' +
    'thanks thank attesta use using used tell explain mean').split(/\s+/),
);

/** Lower-case words with a light suffix strip, so "wallets"/"wallet" and "verifying"/"verify" meet. */
export function tokenize(text: string): string[] {
  const words = text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').match(/[a-z0-9]+(?:[_'][a-z0-9]+)*/g) ?? [];
  const out: string[] = [];
  for (const raw of words) {
    const w = raw.replace(/'s$/, '');
    if (w.length < 2 || STOPWORDS.has(w)) continue;
    out.push(stem(w));
  }
  return out;
}

function stem(w: string): string {
  if (w.length <= 4) return w.replace(/s$/, '');
  if (w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.endsWith('ing') && w.length > 6) return w.slice(0, -3);
  if (w.endsWith('ed') && w.length > 5) return w.slice(0, -2);
  if (w.endsWith('es') && /(ss|x|ch|sh)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

interface Passage {
  kind: 'faq' | 'doc';
  /** Tokens with weighting already applied (a title counts more by appearing more than once). */
  tokens: string[];
  answer: string;
  link: string;
  title: string;
}

function docPassages(sections: DocSection[]): Passage[] {
  const out: Passage[] = [];
  for (const s of sections) {
    const titleTokens = tokenize(s.title);
    const link = `/documentation#${s.id}`;
    out.push({ kind: 'doc', tokens: [...titleTokens, ...titleTokens, ...tokenize(s.summary)], answer: s.summary, link, title: s.title });
    for (const b of s.blocks) {
      const headTokens = b.heading ? tokenize(b.heading) : [];
      for (const p of b.paragraphs ?? []) {
        out.push({ kind: 'doc', tokens: [...titleTokens, ...headTokens, ...headTokens, ...tokenize(p)], answer: p, link, title: b.heading ?? s.title });
      }
      // A headed list is one passage ("what instructions are there?") and each bullet another.
      if (b.heading && b.bullets?.length) {
        // Unique words only: a long list should not lose to one of its bullets on length alone.
        const all = [...new Set(b.bullets.flatMap((x) => tokenize(x)))];
        out.push({ kind: 'doc', tokens: [...titleTokens, ...headTokens, ...headTokens, ...headTokens, ...headTokens, ...all], answer: `${b.heading}:\n${b.bullets.map((x) => `- ${x}`).join('\n')}`, link, title: b.heading });
      }
      for (const bullet of b.bullets ?? []) {
        const answer = b.heading ? `${b.heading}: ${bullet}` : bullet;
        // The heading's words live in the list passage only, so they stay rare (high IDF).
        out.push({ kind: 'doc', tokens: [...titleTokens, ...tokenize(bullet)], answer, link, title: b.heading ?? s.title });
      }
      if (b.code) {
        const answer = b.heading ? `${b.heading}: ${b.code}` : b.code;
        out.push({ kind: 'doc', tokens: [...titleTokens, ...headTokens, ...headTokens, ...tokenize(b.code)], answer, link, title: b.heading ?? s.title });
      }
    }
  }
  return out;
}

function faqPassages(categories: FaqCategory[]): Passage[] {
  return categories.flatMap((c) =>
    c.entries.map((e) => {
      const q = tokenize(e.question);
      // The question is what users paraphrase: it counts three times as much as the answer.
      return { kind: 'faq' as const, tokens: [...q, ...q, ...q, ...tokenize(e.answer)], answer: e.answer, link: '/faq', title: e.question };
    }),
  );
}

export interface Match {
  passage: Passage;
  score: number;
}

/** Okapi BM25 over the passages (k1 = 1.2, b = 0.75). */
export class SupportIndex {
  private readonly passages: Passage[];
  private readonly tf: Map<string, number>[];
  private readonly df = new Map<string, number>();
  private readonly avgLen: number;

  constructor(faq: FaqCategory[] = FAQ_CATEGORIES, docs: DocSection[] = DOCUMENTATION_SECTIONS) {
    this.passages = [...faqPassages(faq), ...docPassages(docs)];
    this.tf = this.passages.map((p) => {
      const m = new Map<string, number>();
      for (const t of p.tokens) m.set(t, (m.get(t) ?? 0) + 1);
      for (const t of m.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      return m;
    });
    this.avgLen = this.passages.reduce((n, p) => n + p.tokens.length, 0) / Math.max(1, this.passages.length);
  }

  search(query: string, limit = 3): Match[] {
    const terms = [...new Set(tokenize(query))];
    if (!terms.length) return [];
    const n = this.passages.length;
    const k1 = 1.2;
    const b = 0.75;
    const scored: Match[] = [];
    this.passages.forEach((p, i) => {
      let score = 0;
      for (const t of terms) {
        const f = this.tf[i].get(t);
        if (!f) continue;
        const df = this.df.get(t) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * (f * (k1 + 1))) / (f + k1 * (1 - b + (b * p.tokens.length) / this.avgLen));
      }
      if (score > 0) scored.push({ passage: p, score });
    });
    return scored.sort((a, b2) => b2.score - a.score).slice(0, limit);
  }
}

// Below this the best passage shares only a common word or two with the question: say so instead.
const MIN_SCORE = 2.2;

const GREETING = /^(hi|hello|hey|hiya|yo|good (morning|afternoon|evening)|greetings)\b[\s!.,]*(there|team|attesta)?[\s!.,]*$/i;
const THANKS = /^(thanks?|thank you|thx|ty|cheers|great|perfect|awesome|ok(ay)?|got it)\b.{0,30}$/i;
const BYE = /^(bye|goodbye|see you|cya)\b.{0,20}$/i;

export const FALLBACK_REPLY =
  "I couldn't find an answer to that in our FAQ or documentation. Please send us a message through the contact page (/contact-us) and the team will get back to you.";

let defaultIndex: SupportIndex | null = null;

/** Answers the last user message of the conversation from the FAQ and the documentation. */
export function answerFromContent(messages: ChatMessageInput[], index: SupportIndex = (defaultIndex ??= new SupportIndex())): string {
  const users = messages.filter((m) => m.role === 'user');
  const last = users.at(-1)?.content.trim() ?? '';
  if (!last) return 'How can I help you? You can ask about wallets, adding and verifying certificates, NFTs or the API.';
  if (GREETING.test(last))
    return 'Hello! How can I help you today? You can ask about connecting a wallet, adding and verifying certificates, NFTs and storage, or the API.';
  if (BYE.test(last)) return 'Goodbye! If anything else comes up, this chat is on every page.';
  if (THANKS.test(last) && tokenize(last).length <= 2) return "You're welcome! Is there anything else I can help you with?";

  let best = index.search(last)[0];
  // A short follow-up ("and on mainnet?") borrows the previous question's words.
  if ((!best || best.score < MIN_SCORE) && users.length > 1) {
    const withContext = index.search(`${users.at(-2)!.content} ${last}`)[0];
    if (withContext && withContext.score >= MIN_SCORE) best = withContext;
  }
  if (!best || best.score < MIN_SCORE) return FALLBACK_REPLY;
  const p = best.passage;
  if (p.kind === 'faq') return `${p.answer}\n\nSee the FAQ (/faq): "${p.title}"`;
  return `${p.answer}\n\nMore in the documentation: ${p.link}`;
}
