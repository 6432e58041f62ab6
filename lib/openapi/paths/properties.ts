import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { PropertyWithListingsSchema } from "../../listings/serialize";
import { API_KEY_SECURITY, TOO_LARGE, UNAUTHORIZED_KEY, errors, jsonContent, ok, uuidParam } from "../common";
import { CreatePropertyRequestSchema, UpdatePropertyRequestSchema } from "../property-bodies";
import { LISTING_FIELDS, PROPERTY_EVENTS, TRANSLATIONS } from "./listing-texts";

const PROPERTY_FIELDS =
  "**Property.** `property.type` must be one of the tenant's `settings.propertyTypes` ids and `features` ids of " +
  "`settings.propertyFeatures`; `assignedToId` must be an active member and `buildingId` a building of the tenant. " +
  "Areas and fees are decimal strings with up to two places, returned with two. `media` replaces the whole photo set " +
  "when sent (exactly one photo ends up primary). `owner` and `internalNotes` are stored for the CRM and never appear on any " +
  "public surface. `owner.phone`/`whatsapp` are normalised to E.164 and `owner.cpf` to its 11 digits.";

const RESTRICTED_PROPERTY =
  "**Access.** A broad key of an `owner`, `admin` or `manager` member may act on every property of the tenant. A " +
  "`restricted` key, and any key of a `broker` member, acts as a broker: it reads and changes only properties " +
  "assigned to or created by its member, cannot assign a property to another member, and a property it creates without " +
  "`assignedToId` is assigned to its member. The response lists only the listings the key may see.";

const propertyId = uuidParam("propertyId", "property");

export function registerPropertyPaths(r: OpenAPIRegistry): void {
  r.registerPath({
    method: "post",
    path: "/api/v1/real-estate/properties",
    tags: ["Properties"],
    operationId: "createProperty",
    summary: "Create a property with its listings",
    description:
      "Creates the property, its location, its photos and the nested `listings[]` (at most 20) in one transaction: " +
      "if any part is invalid nothing is written. Items of `listings[]` must not carry `id` here (a 400): every item " +
      `creates a listing.\n\n${PROPERTY_FIELDS}\n\n${LISTING_FIELDS}\n\n${TRANSLATIONS}\n\n${RESTRICTED_PROPERTY}\n\n${PROPERTY_EVENTS}`,
    security: API_KEY_SECURITY,
    request: { body: { required: true, content: jsonContent(CreatePropertyRequestSchema) } },
    responses: {
      201: ok("The property, its location and its listings.", PropertyWithListingsSchema),
      ...errors({
        400: "Invalid body (`invalid_request` with `issues` naming fields such as `listings.0.price`, or `invalid_json`); an unknown property type, feature, member, building, typology, stage or status; a translation language the tenant has not enabled; a `listings[]` item with `id`.",
        401: UNAUTHORIZED_KEY,
        403: "A restricted key (or a broker's key) assigning the property to another member (`forbidden`).",
        409: "A nested listing's `listingCode` is already used in the tenant (`conflict`).",
        413: TOO_LARGE,
      }),
    },
  });

  r.registerPath({
    method: "get",
    path: "/api/v1/real-estate/properties/{propertyId}",
    tags: ["Properties"],
    operationId: "getProperty",
    summary: "Read a property with its listings",
    description: `The property (owner data included), its location and the listings this key may see.\n\n${RESTRICTED_PROPERTY}`,
    security: API_KEY_SECURITY,
    request: { params: propertyId },
    responses: {
      200: ok("The property, its location and its listings.", PropertyWithListingsSchema),
      ...errors({
        401: UNAUTHORIZED_KEY,
        404: "No such property in the tenant, or (restricted keys) one not assigned to or created by the key's member (`not_found`).",
      }),
    },
  });

  r.registerPath({
    method: "patch",
    path: "/api/v1/real-estate/properties/{propertyId}",
    tags: ["Properties"],
    operationId: "updateProperty",
    summary: "Change a property and its listings",
    description:
      "Partial update in one transaction: `property` fields and `location` fields sent replace the stored ones, fields " +
      "not sent are kept. Nested `listings[]` items with `id` update that listing of this property (partial, " +
      "`translations` included: this is the only way to write translations); items without `id` create a listing. " +
      "Send at least one of `property`, `location`, `listings`.\n\n" +
      `${PROPERTY_FIELDS}\n\n${LISTING_FIELDS}\n\n${TRANSLATIONS}\n\n${RESTRICTED_PROPERTY}\n\n${PROPERTY_EVENTS}`,
    security: API_KEY_SECURITY,
    request: { params: propertyId, body: { required: true, content: jsonContent(UpdatePropertyRequestSchema) } },
    responses: {
      200: ok("The property, its location and its listings after the change.", PropertyWithListingsSchema),
      ...errors({
        400: "Invalid or empty body; a `listings[]` item whose `id` is not a listing of this property; an unknown property type, feature, member, building, typology, stage or status; a translation language the tenant has not enabled, `pt-BR` in `translations`, or `source` other than `manual` (`invalid_request`).",
        401: UNAUTHORIZED_KEY,
        403: "A restricted key (or a broker's key) changing a property not assigned to or created by its member, or assigning it to another member (`forbidden`).",
        404: "No such property in the tenant (`not_found`).",
        409: "A nested listing's `listingCode` is already used in the tenant (`conflict`).",
        413: TOO_LARGE,
      }),
    },
  });
}
