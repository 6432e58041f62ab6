import type { ReactNode } from "react";
import { headers } from "next/headers";

export const metadata = { title: "ImobiCRM", description: "Multi-tenant real-estate CRM service" };

/**
 * One root layout for the service's pages and the rendered sites. A site page carries its locale
 * in the request header the proxy sets (next-intl's), which gives `<html lang>`; the service's
 * own pages keep their English page and inline style.
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  const siteLocale = (await headers()).get("x-next-intl-locale");
  if (siteLocale) {
    return (
      <html lang={siteLocale}>
        <body>{children}</body>
      </html>
    );
  }
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", margin: 0, color: "#1b1f24" }}>{children}</body>
    </html>
  );
}
