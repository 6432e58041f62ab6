/**
 * Why an outbound request failed. `message` is written for a delivery log or an operator: the
 * refusals start with `EPRIVATEADDRESS: refused:` and say which address and range.
 */
export class OutboundError extends Error {
  constructor(
    readonly kind: "refused" | "invalid_url" | "timeout" | "network" | "too_large" | "redirect",
    message: string,
    readonly code: string | null = null,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = "OutboundError";
  }
}

export const REFUSED_CODE = "EPRIVATEADDRESS";

/** A refusal of the address policy: `text` names the host, the address and its range. */
export const refused = (text: string) => new OutboundError("refused", `${REFUSED_CODE}: refused: ${text}`, REFUSED_CODE);
