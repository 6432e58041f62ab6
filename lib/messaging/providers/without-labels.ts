import type { ProviderAdapter } from "./types";

type WithoutLabels = Pick<
  ProviderAdapter,
  "labels" | "chatLabels" | "lidToPhone" | "phoneToLid" | "supportsLabels" | "setChatLabels" | "createLabel" | "deleteLabel"
>;

/**
 * The label and `@lid` half of an adapter for a channel that has neither (WhatsApp Cloud,
 * Instagram, Messenger, e-mail): reads answer empty, so conversations list without labels, and
 * every mutation throws (callers check `supportsLabels` first and answer `channel_labels_unsupported`).
 * `kind` names the channel in the thrown message, e.g. "e-mail".
 */
export function withoutLabels(kind: string): WithoutLabels {
  const refuse = async (): Promise<never> => {
    throw new Error(`${kind} channels have no chat labels`);
  };
  return {
    labels: async () => [],
    chatLabels: async () => [],
    lidToPhone: async () => null,
    phoneToLid: async () => null,
    supportsLabels: false,
    setChatLabels: refuse,
    createLabel: refuse,
    deleteLabel: refuse,
  };
}
