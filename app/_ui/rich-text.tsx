import { createElement, type ReactNode } from "react";
import { isSitePath } from "@/lib/util/site-path";

/**
 * Rich text from the page editor (HTML) rendered as React elements from an allow-list of tags:
 * text is escaped by React, attributes are dropped except a link's http(s), mailto, tel or
 * site-relative `href`. Unknown tags disappear, their text stays. Never `dangerouslySetInnerHTML`.
 */
const ALLOWED = new Set(["p", "br", "strong", "b", "em", "i", "u", "s", "h2", "h3", "h4", "ul", "ol", "li", "a", "blockquote", "hr", "span"]);
const VOID = new Set(["br", "hr"]);
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: "\u00a0" };

const decode = (s: string) =>
  s.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+\d*);/gi, (m, e: string) => {
    if (ENTITIES[e.toLowerCase()]) return ENTITIES[e.toLowerCase()];
    if (e[0] === "#") {
      const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : "";
    }
    return m;
  });

function safeHref(attrs: string): string | undefined {
  const m = attrs.match(/\bhref\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/i);
  const v = decode((m?.[2] ?? m?.[3] ?? m?.[4] ?? "").trim());
  if (/^(https?:|mailto:|tel:)/i.test(v) || isSitePath(v) || v.startsWith("#")) return v;
  return undefined;
}

type Node = { tag: string; attrs: string; children: (Node | string)[] };

export function parseRichText(html: string): (Node | string)[] {
  const root: Node = { tag: "#root", attrs: "", children: [] };
  const stack: Node[] = [root];
  const re = /<!--[\s\S]*?-->|<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>|([^<]+)|</g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(html.slice(0, 100_000)))) {
    const top = stack[stack.length - 1];
    if (m[4] !== undefined) top.children.push(decode(m[4]));
    else if (m[2]) {
      const tag = m[2].toLowerCase();
      if (m[1]) {
        const at = stack.map((n) => n.tag).lastIndexOf(tag);
        if (at > 0) stack.length = at;
      } else if (tag === "script" || tag === "style") {
        // Their content is never text: skip to the closing tag.
        const end = html.toLowerCase().indexOf(`</${tag}`, re.lastIndex);
        re.lastIndex = end < 0 ? html.length : end;
      } else {
        const node: Node = { tag, attrs: m[3] ?? "", children: [] };
        top.children.push(node);
        if (!VOID.has(tag) && !/\/\s*$/.test(m[3] ?? "")) stack.push(node);
      }
    } else if (m[0] === "<") top.children.push("<");
  }
  return root.children;
}

function toReact(nodes: (Node | string)[], key = "k"): ReactNode[] {
  return nodes.map((n, i) => {
    if (typeof n === "string") return n;
    const children = toReact(n.children, `${key}-${i}`);
    if (!ALLOWED.has(n.tag)) return children.length ? createElement("span", { key: `${key}-${i}` }, ...children) : null;
    const props: Record<string, unknown> = { key: `${key}-${i}` };
    if (n.tag === "a") {
      props.href = safeHref(n.attrs);
      if (typeof props.href === "string" && /^https?:/i.test(props.href)) props.rel = "noopener noreferrer";
    }
    return VOID.has(n.tag) ? createElement(n.tag, props) : createElement(n.tag, props, ...children);
  });
}

export function RichText({ html, className = "rich" }: { html: string; className?: string }) {
  return <div className={className}>{toReact(parseRichText(html))}</div>;
}

/** Plain text with blank lines as paragraph breaks. */
export function Paragraphs({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/\n\s*\n/)
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p, i) => (
          <p key={i}>{p}</p>
        ))}
    </>
  );
}
