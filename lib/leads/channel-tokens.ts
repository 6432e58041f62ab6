import { createHash, randomBytes } from "node:crypto";

/** 192 random bits: unguessable paths and tokens (the issue asks for at least 128). */
const random = () => randomBytes(24).toString("base64url");

/** The path token of a channel's inbound webhook: `chnl_` + random, shown in channel reads. */
export const newPathToken = () => `chnl_${random()}`;
/** The feeds' Bearer token: shown once, stored as its SHA-256. */
export const newFeedToken = () => `feed_${random()}`;
/** A receiving secret generated for the channel (when it does not bring its own). */
export const newChannelSecret = () => `whsec_${random()}`;

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
