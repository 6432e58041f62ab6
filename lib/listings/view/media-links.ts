import { safeUrl } from "../../util/safe-url";
import type { Doc } from "./doc-fields";

export type MediaLink = { kind: "video" | "tour"; href: string };

/** A listing's video and virtual tour, when each is a web address (http or https). */
export function mediaLinks(doc: Doc): MediaLink[] {
  return (["video", "tour"] as const).flatMap((kind) => {
    const href = safeUrl(doc[`${kind}Url`]);
    return href && /^https?:\/\//i.test(href) ? [{ kind, href }] : [];
  });
}
