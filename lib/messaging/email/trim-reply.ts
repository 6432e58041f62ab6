/**
 * The new text of an e-mail: quoted history and the signature cut off, so the preview (and the
 * history line) shows what the correspondent wrote now. Heuristics, in order: the first line that
 * opens a quotation in pt-BR, en or es ("Em ... escreveu:", "On ... wrote:", "El ... escribió:"),
 * an Outlook "-----Original Message-----" / "De:"+"Enviada em:" header block or underscore rule;
 * `>` quoted lines; the RFC 3676 signature delimiter ("-- ") and mobile sign-offs.
 */
const QUOTE_OPENERS = [
  /^\s*(em|on|el|le|am)\s.{1,200}\s(escreveu|wrote|escribió|escribio|a écrit|schrieb)\s*:?\s*$/i,
  /^\s*-{2,}\s*(original message|mensagem original|mensaje original|forwarded message|mensagem encaminhada)\s*-{2,}\s*$/i,
  /^\s*_{10,}\s*$/,
  /^\s*(de|from)\s*:\s.+$/i,
];
const SIGNATURE = [/^--\s?$/, /^\s*(enviado do meu|sent from my|enviado desde mi)\b.*$/i];

export function trimReply(text: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // "On Mon, ... <a@b.c>" is often wrapped over two lines before "wrote:".
    const joined = i + 1 < lines.length ? `${line} ${lines[i + 1]}` : line;
    if (QUOTE_OPENERS.some((re) => re.test(line)) || (/^\s*(em|on|el)\s/i.test(line) && QUOTE_OPENERS[0].test(joined))) {
      // "De:" alone is a quoted header only when it starts a header block (followed by more headers).
      if (/^\s*(de|from)\s*:/i.test(line) && !/^\s*(enviad[ao]|sent|date|data|para|to|assunto|subject)\s*:/i.test(lines[i + 1] ?? "")) {
        kept.push(line);
        continue;
      }
      break;
    }
    if (SIGNATURE.some((re) => re.test(line))) break;
    if (/^\s*>/.test(line)) continue;
    kept.push(line);
  }
  return kept
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
