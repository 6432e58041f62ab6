"use client";

import { useEffect, useRef } from "react";
import { identify, isIdentified, sync, visitorId } from "./store";

/**
 * The lead form's hidden `visitorId`, filled in here (empty without JavaScript); sending the form
 * identifies the visitor, and the list is synced first so the deal finds it.
 */
export function VisitorIdField({ siteId }: { siteId: string }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const input = ref.current;
    if (!input) return;
    input.value = visitorId();
    const form = input.form;
    const sent = () => identify(siteId);
    form?.addEventListener("submit", sent);
    return () => form?.removeEventListener("submit", sent);
  }, [siteId]);
  return <input ref={ref} type="hidden" name="visitorId" defaultValue="" />;
}

/** What this page tells the agency once: the listings compared here, or a listing page opened by an identified visitor. */
/** `compared`: the listing ids, comma-separated. */
export function VisitorSignal({ siteId, compared, viewed }: { siteId: string; compared?: string; viewed?: string }) {
  useEffect(() => {
    if (compared) void sync(siteId, { compared: compared.split(",") });
    else if (viewed && isIdentified(siteId)) void sync(siteId, { viewed: [viewed] });
  }, [siteId, compared, viewed]);
  return null;
}
