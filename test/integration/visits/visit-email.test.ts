/**
 * The visit's e-mail confirmation: a booking whose contact gave an address gets a mail through the
 * service's SMTP (a real `smtp-server` on 127.0.0.1) in the visitor's language, with the visit as
 * an `.ics` file parsed back here; a failing server leaves the booking and answers `none`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as bookRoute from "../../../app/api/sites/[siteId]/listings/[listingId]/visits/route";
import * as slotsRoute from "../../../app/api/sites/[siteId]/listings/[listingId]/visit-slots/route";
import * as availabilityRoute from "../../../app/api/v1/members/[id]/availability/route";
import * as taskRoute from "../../../app/api/v1/crm/tasks/[id]/route";
import * as propertiesRoute from "../../../app/api/v1/real-estate/properties/route";
import { resetConfigForTests } from "../../../lib/config";
import { CLIENT_ADDRESS_HEADER } from "../../../lib/http/client-address";
import { startFakeSmtp, type FakeSmtp } from "../../fakes/smtp-server";
import { makeTenant, propertyBody, saleListing, type TestTenant } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { makeSite } from "../../helpers/sites";

let ip = 0;
const from = () => ({ [CLIENT_ADDRESS_HEADER]: `10.38.${Math.floor(++ip / 250)}.${ip % 250}` });
const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: "08:00", end: "20:00" }));

let smtp: FakeSmtp;
let t: TestTenant;
let site: { id: string };
let listingId: string;

const setSmtp = (url: string | undefined) => {
  if (url) process.env.SMTP_URL = url;
  else delete process.env.SMTP_URL;
  resetConfigForTests();
};
const freeSlots = async () =>
  (await call(slotsRoute.GET, "GET", "/x", { params: { siteId: site.id, listingId }, query: { days: "3" }, headers: from() })).body.slots;
const book = (body: unknown) => call(bookRoute.POST, "POST", "/x", { params: { siteId: site.id, listingId }, body, headers: from() });

/** The value of one unfolded iCalendar property. */
function icsProp(ics: string, name: string): string | undefined {
  const unfolded = ics.replace(/\r\n[ \t]/g, "");
  return unfolded
    .split("\r\n")
    .find((l) => l.startsWith(`${name}:`) || l.startsWith(`${name};`))
    ?.replace(/^[^:]*:/, "");
}

beforeAll(async () => {
  smtp = await startFakeSmtp({ user: "service", password: "service-pass" });
  setSmtp(`smtp://service:service-pass@${smtp.host}:${smtp.port}`);
  t = await makeTenant("Imobiliária Agenda");
  const body = propertyBody({}, [saleListing({ stage: "active", visibility: "public" })]);
  body.location = {
    street: "Rua das Flores",
    number: "742",
    complement: "Apto 51",
    neighborhood: "Jardins",
    city: "São Paulo",
    state: "SP",
    postalCode: "01415-000",
  } as never;
  const res = await call(propertiesRoute.POST, "POST", "/x", { key: t.key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  listingId = res.body.listings[0].id;
  site = await makeSite(t);
  const put = await call(availabilityRoute.PUT, "PUT", "/x", {
    key: t.key,
    params: { id: t.ownerId },
    body: { timezone: "America/Sao_Paulo", weekly: EVERY_DAY, exceptions: [], slotMinutes: 60 },
  });
  expect(put.status).toBe(200);
});
afterAll(async () => {
  setSmtp(undefined);
  await smtp?.close();
});

describe("visit confirmation by e-mail", () => {
  it("mails the visitor in their language with an .ics of the visit (UTC times, no private address fields)", async () => {
    const [slot] = await freeSlots();
    const before = smtp.state.received.length;
    const res = await book({
      start: slot.start,
      contact: { name: "Paula Souza", phone: "+5511987650101", email: "paula@cliente.test" },
      consent: true,
      locale: "en",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // The tenant has no WhatsApp channel: the e-mail is the confirmation.
    expect(res.body.confirmation).toBe("email");
    expect(smtp.state.received.length).toBe(before + 1);
    const mail = smtp.state.received.at(-1)!;
    expect(mail.to).toEqual(["paula@cliente.test"]);
    expect(mail.parsed.subject).toMatch(/^Visit confirmed/);
    expect(mail.parsed.text).toContain("Hi Paula! Your visit to");
    expect(mail.parsed.from?.value[0].name).toBe("Imobiliária Agenda");

    const att = mail.parsed.attachments.find((a) => a.contentType === "text/calendar");
    expect(att, "a text/calendar attachment").toBeTruthy();
    expect(att!.filename).toBe("visita.ics");
    const ics = att!.content.toString("utf8");
    expect(ics.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    // 2026-12-01T12:00:00.000Z -> 20261201T120000Z: the slot's own instants, in UTC.
    const utc = (iso: string) => `${iso.replace(/[-:]/g, "").replace(/\.\d{3}/, "")}`;
    expect(icsProp(ics, "DTSTART")).toBe(utc(new Date(slot.start).toISOString()));
    expect(icsProp(ics, "DTEND")).toBe(utc(new Date(slot.end).toISOString()));
    expect(icsProp(ics, "DTSTART")).toMatch(/^\d{8}T\d{6}Z$/);
    expect(icsProp(ics, "SUMMARY")).toMatch(/^Visit: Apartamento 3 dormitórios nos Jardins \(\S+\)$/);
    const location = icsProp(ics, "LOCATION")!;
    expect(location).toContain("Rua das Flores");
    expect(location).toContain("Jardins");
    expect(location).toContain("São Paulo");
    // The private parts of the address appear nowhere. The house number is matched as a word: the
    // digits "742" may occur by chance inside the UID's random id or the DTSTAMP's time.
    expect(ics).not.toMatch(/(^|[^0-9A-Za-z])742($|[^0-9])/);
    for (const secret of ["Apto 51", "01415-000"]) expect(ics).not.toContain(secret);
    expect(icsProp(ics, "UID")).toBe(`visit-${res.body.id}@${icsProp(ics, "URL")!.split("/")[2]}`);
  });

  it("writes Portuguese by default", async () => {
    const [slot] = await freeSlots();
    const res = await book({ start: slot.start, contact: { name: "João Lima", phone: "+5511987650102", email: "joao@cliente.test" }, consent: true });
    expect(res.status).toBe(201);
    const mail = smtp.state.received.at(-1)!;
    expect(mail.to).toEqual(["joao@cliente.test"]);
    expect(mail.parsed.subject).toMatch(/^Visita confirmada/);
    expect(mail.parsed.text).toContain("Olá, João! Sua visita ao imóvel");
  });

  it("sends no mail without an address", async () => {
    const [slot] = await freeSlots();
    const before = smtp.state.received.length;
    const res = await book({ start: slot.start, contact: { name: "Sem Email", phone: "+5511987650103" }, consent: true });
    expect(res.status).toBe(201);
    expect(res.body.confirmation).toBe("none");
    expect(smtp.state.received.length).toBe(before);
  });

  it("keeps the booking when the SMTP server refuses the mail, answering confirmation none", async () => {
    const [slot] = await freeSlots();
    smtp.state.switches.rejectData = true;
    try {
      const res = await book({ start: slot.start, contact: { name: "Rita", phone: "+5511987650104", email: "rita@cliente.test" }, consent: true });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.confirmation).toBe("none");
      const task = await call(taskRoute.GET, "GET", "/x", { key: t.key, params: { id: res.body.id } });
      expect(task.body).toMatchObject({ type: "visit", status: "open", dueAt: slot.start });
    } finally {
      smtp.state.switches.rejectData = false;
    }
  });
});
