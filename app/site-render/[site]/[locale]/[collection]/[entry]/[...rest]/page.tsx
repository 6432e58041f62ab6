import { notFound } from "next/navigation";

/**
 * Any deeper path of a site (`/en/en/imovel/X`, a mistyped link) is the site's own 404 page, in its
 * chrome and language, rather than the framework's bare one (which has no landmarks).
 */
export default function DeeperPath(): never {
  notFound();
}
