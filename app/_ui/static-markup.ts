import type { ReactElement } from "react";

type Renderer = { renderToStaticMarkup: (element: ReactElement) => string };
let renderer: Promise<Renderer> | undefined;

/**
 * React DOM's HTML renderer, loaded by Node at run time instead of bundled. Route handlers are
 * compiled for React Server Components, where Next.js refuses `react-dom/server` (its React Server
 * build renders no HTML); the installed package is the renderer `next` itself depends on. The
 * components it renders are plain synchronous functions (no hooks, no context, no "use client"):
 * the same ones Next.js renders on the sites.
 */
function load(): Promise<Renderer> {
  renderer ??= import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "react-dom/server").then((m: Partial<Renderer> & { default?: Renderer }) => ({
    renderToStaticMarkup: (m.renderToStaticMarkup ?? m.default!.renderToStaticMarkup).bind(null),
  }));
  return renderer;
}

/**
 * A whole page (`<html>…</html>`) as HTML, with no client runtime: `renderToStaticMarkup` writes
 * markup only (no hydration data, no `<script>`), so the page is exactly what the components say.
 */
export async function renderDocument(page: ReactElement): Promise<string> {
  const html = (await load()).renderToStaticMarkup(page);
  return html.startsWith("<!DOCTYPE") || html.startsWith("<!doctype") ? html : `<!doctype html>${html}`;
}
