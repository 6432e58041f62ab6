import type { ReactNode } from "react";

export const metadata = { title: "ImobiCRM", description: "Multi-tenant real-estate CRM service" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", margin: 0, color: "#1b1f24" }}>{children}</body>
    </html>
  );
}
