import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { AvailabilityInput, AvailabilitySchema } from "../../visits/availability-schema";
import { API_KEY_SECURITY, TOO_LARGE, UNAUTHORIZED_KEY, errors, ok, uuidParam } from "../common";

const WHO =
  "**Who.** A member manages its own availability with any of its keys; a broad key of an `owner` or `admin` manages " +
  "anyone's. Any other member's id is a 403; an id that is no member of the tenant is a 404.";

export function registerAvailabilityPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "get",
    path: "/api/v1/members/{id}/availability",
    tags: ["Members"],
    operationId: "getMemberAvailability",
    summary: "A member's visit availability",
    description: `What \`PUT\` stored, or the empty default (\`weekly: []\`, \`updatedAt: null\`) before the first one.\n\n${WHO}`,
    security: API_KEY_SECURITY,
    request: { params: uuidParam("id", "member") },
    responses: {
      200: ok("The member's availability.", AvailabilitySchema),
      ...errors({
        401: UNAUTHORIZED_KEY,
        403: "Another member's availability without an owner/admin broad key (`forbidden`).",
        404: "No such member in the tenant (`not_found`).",
      }),
    },
  });
  r.registerPath({
    method: "put",
    path: "/api/v1/members/{id}/availability",
    tags: ["Members"],
    operationId: "putMemberAvailability",
    summary: "Publish when a member shows listings",
    description:
      "Replaces the member's availability. `weekly` ranges are local times (`HH:MM`, `end` up to `24:00`) in `timezone` (IANA), " +
      "`weekday` 0 Sunday to 6 Saturday; ranges of one day must not overlap (touching is fine). An `exceptions` entry either closes a " +
      "local date (`{date, available: false}`) or replaces that date's weekly ranges with its own (`{date, start, end}`, several per " +
      "date allowed). `slotMinutes` (15 to 240) is the length of a visit: the site offers slots of that length from each range's start. " +
      "Slots follow the zone's daylight-saving rules: a local time the clocks skip is never offered. Visits already booked stay " +
      `booked (they are tasks).\n\n${WHO}`,
    security: API_KEY_SECURITY,
    request: {
      params: uuidParam("id", "member"),
      body: {
        required: true,
        content: {
          "application/json": {
            schema: AvailabilityInput,
            example: {
              timezone: "America/Sao_Paulo",
              weekly: [
                { weekday: 1, start: "09:00", end: "12:00" },
                { weekday: 1, start: "14:00", end: "18:00" },
              ],
              exceptions: [{ date: "2026-12-25", available: false }],
              slotMinutes: 60,
            },
          },
        },
      },
    },
    responses: {
      200: ok("The stored availability.", AvailabilitySchema),
      ...errors({
        400: "Invalid body (`invalid_request` with `issues`): an unknown time zone, a malformed time, `end` not after `start`, overlapping ranges, `slotMinutes` out of 15-240.",
        401: UNAUTHORIZED_KEY,
        403: "Another member's availability without an owner/admin broad key (`forbidden`).",
        404: "No such member in the tenant (`not_found`).",
        413: TOO_LARGE,
      }),
    },
  });
}
