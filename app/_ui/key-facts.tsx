import type { KeyFact } from "@/lib/listings/view/key-facts";

/** A listing's key figures as tiles (value, and what it is when the value does not say). */
export function KeyFacts({ facts }: { facts: KeyFact[] }) {
  if (!facts.length) return null;
  return (
    <ul className="keyfacts">
      {facts.map((f, i) => (
        <li key={i}>
          <b>{f.value}</b>
          {f.label && <span>{f.label}</span>}
        </li>
      ))}
    </ul>
  );
}
