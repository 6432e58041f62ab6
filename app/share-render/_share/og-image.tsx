import { readFile } from "node:fs/promises";
import path from "node:path";
import { LRUCache } from "lru-cache";
import { ImageResponse } from "next/og";
import { outboundRequest } from "@/lib/outbound-fetch/outbound-request";
import { isResizable } from "@/lib/media/photo-source";
import { photoVariant } from "@/lib/media/photo-variant";
import { isSitePath } from "@/lib/util/site-path";
import { drawable, type OgContent } from "./og";

const W = 1200;
const H = 630;

/** Rendered previews by token and content version: a messaging app asks again and again for the same card. */
const g = globalThis as unknown as { __crmShareOg?: LRUCache<string, ArrayBuffer> };
const cache = (g.__crmShareOg ??= new LRUCache<string, ArrayBuffer>({ max: 500, maxSize: 64 * 1024 * 1024, sizeCalculation: (b) => b.byteLength || 1 }));

const TYPES: Record<string, string> = {
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".gif": "image/gif",
};
const MAX_IMAGE_BYTES = 4 * 1024 * 1024;

/**
 * An image for the card as a data URL: a site-relative path is read from `public/` (the demo's
 * photos), an http(s) address fetched through the outbound guard with a short deadline. Anything
 * that fails or is refused is left out: the card renders without it rather than late.
 */
export async function imageData(src: string | null, timeoutMs = 1500): Promise<string | null> {
  if (!src) return null;
  try {
    if (isSitePath(src)) {
      const root = path.join(process.cwd(), "public");
      const file = path.normalize(path.join(root, decodeURIComponent(src.split(/[?#]/)[0])));
      if (!file.startsWith(root + path.sep)) return null;
      const type = TYPES[path.extname(file).toLowerCase()];
      if (!type) return null;
      const buf = await readFile(file);
      return buf.length <= MAX_IMAGE_BYTES ? `data:${type};base64,${buf.toString("base64")}` : null;
    }
    if (!/^https?:\/\//i.test(src)) return null;
    // A logo or photo address is the tenant's: fetched through the outbound guard (no private
    // address in production, at most 3 redirects each checked again, 4 MB, the same deadline).
    const res = await outboundRequest(src, { purpose: "image", headers: { accept: "image/*" }, timeoutMs, maxBytes: MAX_IMAGE_BYTES, maxRedirects: 3 });
    const header = res.headers["content-type"];
    const type = (Array.isArray(header) ? header[0] : header)?.split(";")[0].trim().toLowerCase() ?? "";
    if (res.status < 200 || res.status >= 300 || !/^image\/(png|jpeg|webp|gif|svg\+xml)$/.test(type)) return null;
    return `data:${type};base64,${res.body.toString("base64")}`;
  } catch {
    return null;
  }
}

/**
 * The card's photo: a listing photo the service resizes is taken from its 960-wide JPEG variant
 * (made once, cached with the others: a 3 MB original is neither fetched nor decoded per card),
 * with the same deadline as any image here; anything else as `imageData` loads it.
 */
async function coverData(src: string | null, timeoutMs = 1500): Promise<string | null> {
  if (!src || !isResizable(src)) return imageData(src, timeoutMs);
  const made = photoVariant(src, 960, "jpeg", null).then((v) => readFile(v.file));
  const late = new Promise<null>((ok) => setTimeout(ok, timeoutMs, null).unref());
  const bytes = await Promise.race([made, late]).catch(() => null);
  return bytes ? `data:image/jpeg;base64,${bytes.toString("base64")}` : null;
}

function Logo({ src, name, color, on, size }: { src: string | null; name: string; color: string; on: string; size: number }) {
  if (src)
    return (
      <img src={src} alt="" width={size} height={size} style={{ width: size, height: size, borderRadius: 16, background: "#fff", objectFit: "contain" }} />
    );
  return (
    <div
      style={{
        width: size,
        height: size,
        borderRadius: 16,
        background: on,
        color,
        display: "flex",
        alignItems: "center",
        justifyContent: "center",
        fontSize: size * 0.5,
      }}
    >
      {drawable(name).charAt(0).toUpperCase() || " "}
    </div>
  );
}

/** At most `max` characters, cut at a word with an ellipsis (the card has room for three lines). */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  let cut = s.slice(0, max - 1);
  const sp = cut.lastIndexOf(" ");
  if (s[max - 1] !== " " && sp > max * 0.6) cut = cut.slice(0, sp);
  return `${cut.replace(/[\s,.;:·-]+$/, "")}…`;
}

/** The 1200×630 card: the cover photo beside the title and price, or the tenant's branding alone. */
const inFlight = new Map<string, Promise<ArrayBuffer>>();

export async function renderOgImage(key: string, c: OgContent): Promise<{ png: ArrayBuffer; cached: boolean }> {
  const hit = cache.get(key);
  if (hit) return { png: hit, cached: true };
  // The page's background render and the crawler's request may meet: one render serves both.
  let p = inFlight.get(key);
  if (p) return { png: await p, cached: true };
  p = render(key, c).finally(() => inFlight.delete(key));
  inFlight.set(key, p);
  return { png: await p, cached: false };
}

async function render(key: string, c: OgContent): Promise<ArrayBuffer> {
  const [logo, cover] = await Promise.all([imageData(c.logo), c.kind === "entity" ? coverData(c.cover) : Promise.resolve(null)]);
  const brand = drawable(c.brandName);
  // Three lines at most: about 16 characters a line beside the photo (50 px), 30 without it (64 px).
  const title = clip(drawable(c.title), c.kind === "entity" && c.cover ? 46 : 90);
  const subtitle = clip(drawable(c.subtitle), 60);
  const element =
    c.kind === "branding" ? (
      <div
        style={{
          width: W,
          height: H,
          display: "flex",
          flexDirection: "column",
          alignItems: "center",
          justifyContent: "center",
          background: c.color,
          color: c.onColor,
          gap: 36,
        }}
      >
        <Logo src={logo} name={brand || title} color={c.color} on={c.onColor} size={180} />
        <div style={{ fontSize: 64, display: "flex", textAlign: "center", maxWidth: 1000 }}>{title || brand}</div>
      </div>
    ) : (
      <div style={{ width: W, height: H, display: "flex", background: c.color, color: c.onColor }}>
        {cover ? <img src={cover} alt="" width={660} height={H} style={{ width: 660, height: H, objectFit: "cover" }} /> : null}
        <div style={{ flex: 1, display: "flex", flexDirection: "column", justifyContent: "space-between", padding: 48 }}>
          <div style={{ display: "flex", alignItems: "center", gap: 20 }}>
            <Logo src={logo} name={brand} color={c.color} on={c.onColor} size={80} />
            <div style={{ fontSize: 34, display: "flex", flex: 1 }}>{brand}</div>
          </div>
          <div style={{ display: "flex", flexDirection: "column", gap: 18 }}>
            <div style={{ fontSize: cover ? 50 : 64, lineHeight: 1.15, display: "flex", maxHeight: 3 * 1.15 * (cover ? 50 : 64), overflow: "hidden" }}>
              {title}
            </div>
            {subtitle ? <div style={{ fontSize: 36, display: "flex" }}>{subtitle}</div> : null}
          </div>
        </div>
      </div>
    );
  const res = new ImageResponse(element, { width: W, height: H });
  const png = await res.arrayBuffer();
  cache.set(key, png);
  return png;
}

/**
 * Loads the renderer's WebAssembly (layout and rasteriser) and the font once at server start, in
 * the background, so the first preview a messaging app asks for is not the slow one.
 */
export async function warmOgRenderer(): Promise<void> {
  const res = new ImageResponse(<div style={{ width: 8, height: 8, display: "flex", background: "#fff" }}>a</div>, { width: 8, height: 8 });
  await res.arrayBuffer();
}
