import { formatMoney, formatNumber } from "@/lib/i18n/format";
import type { PriceEstimate } from "@/lib/share/price-estimate";
import { answerParams, type Answers, type ContactForm, type PricingStep } from "@/lib/share/pricing-flow";
import { ErrorSummary, FieldError, Heading, Hidden, invalid, NoticeBlock, Progress, q, StepActions, type StepView } from "./form-parts";
import { pricingPage, type Frame } from "./pricing-document";

type Labels = { cityLabel: string; type: string };

/** The visitor's answers with a link back to change each group. */
function AnswersList({ f, a, labels, neighborhood }: { f: Frame; a: Answers; labels: Labels; neighborhood: string }) {
  const change = (step: PricingStep) => (
    <>
      {" "}
      <a href={`${f.base}${q([...answerParams(a, step), ["step", step]])}`}>
        {f.t("change")}
        <span className="sr-only"> ({f.t(`steps.${step}`)})</span>
      </a>
    </>
  );
  const rooms = [
    a.bedrooms ? `${a.bedrooms} ${f.t("profile.bedrooms").toLowerCase()}` : null,
    a.bathrooms ? `${a.bathrooms} ${f.t("profile.bathrooms").toLowerCase()}` : null,
    a.parkingSpaces ? `${a.parkingSpaces} ${f.t("profile.parking").toLowerCase()}` : null,
  ].filter(Boolean);
  return (
    <section className="card" aria-labelledby="yours">
      <h2 id="yours">{f.t("estimate.yours")}</h2>
      <dl>
        <dt>{f.t("steps.city")}</dt>
        <dd>
          {labels.cityLabel}
          {change("city")}
        </dd>
        <dt>{f.t("steps.neighborhood")}</dt>
        <dd>
          {neighborhood}
          {change("neighborhood")}
        </dd>
        <dt>{f.t("steps.profile")}</dt>
        <dd>
          {`${labels.type}, ${a.totalArea.replace(".", f.locale === "en" ? "." : ",")} m²${rooms.length ? `, ${rooms.join(", ")}` : ""}`}
          {change("profile")}
        </dd>
      </dl>
    </section>
  );
}

/** Step 4: the estimate (value, range, confidence in plain words, the anonymised comparables) and the way to the contact step. */
export function estimatePage(f: Frame, v: StepView, e: PriceEstimate, labels: Labels): Promise<string> {
  const a: Answers = { ...v.answers, estimate: e.estimate };
  const nb = e.explanation.neighborhood ?? a.neighborhood;
  const money = (n: number) => formatMoney(f.locale, n);
  const level = e.confidence.level;
  const levelKey = level === "high" ? "levelHigh" : level === "medium" ? "levelMedium" : "levelLow";
  const comps = e.explanation.comparables;
  return pricingPage(
    f,
    f.t("estimate.heading"),
    <>
      <Heading text={f.t("estimate.heading")} focus />
      <Progress f={f} step="estimate" />
      <section className="card result" aria-live="polite" aria-atomic="true">
        {e.estimate ? (
          <>
            <p className="label">{f.t("estimate.value")}</p>
            <p className="value">{money(e.estimate.value)}</p>
            <p>{f.t("estimate.range", { low: money(e.estimate.low), high: money(e.estimate.high) })}</p>
            <p className="conf">
              <strong>{f.t(`estimate.${levelKey}`)}</strong>
              {f.t(`estimate.${level}`, { count: e.confidence.comparables })}
            </p>
            {e.pricePerSqm ? <p>{f.t("estimate.perSqm", { value: money(e.pricePerSqm) })}</p> : null}
          </>
        ) : (
          <p>{f.t("estimate.none", { name: f.brand.name })}</p>
        )}
        {comps.length > 0 && (
          <details>
            <summary>{`${f.t("estimate.comparables")} (${comps.length})`}</summary>
            <ul className="comps">
              {comps.map((c, i) => (
                <li key={i}>
                  {[
                    c.neighborhood,
                    `${formatNumber(f.locale, c.totalArea)} m²`,
                    c.bedrooms !== null ? f.t("estimate.bedrooms", { count: c.bedrooms }) : null,
                    f.t("estimate.comparable", { price: money(c.pricePerSqm) }),
                    f.t(`estimate.distance.${c.distanceBand}`),
                  ]
                    .filter(Boolean)
                    .join(", ")}
                </li>
              ))}
            </ul>
          </details>
        )}
        <p className="muted">{f.t("estimate.disclaimer")}</p>
      </section>
      <section className="card" aria-labelledby="cta">
        <h2 id="cta">{f.t("estimate.ctaTitle")}</h2>
        <p>{f.t("estimate.ctaText", { name: f.brand.name })}</p>
        <form method="get" action={f.base}>
          <Hidden params={answerParams(a, "contact")} />
          <input type="hidden" name="step" value="contact" />
          <button className="btn" type="submit">
            {f.t("estimate.cta", { name: f.brand.name })}
          </button>
        </form>
      </section>
      <AnswersList f={f} a={a} labels={labels} neighborhood={nb} />
      <p>
        <a href={f.base}>{f.t("estimate.again")}</a>
      </p>
    </>,
  );
}

/** Step 5 (optional): the homeowner's contact, a POST that sends the pricing lead. */
export function contactPage(f: Frame, v: StepView, form: ContactForm, labels: Labels): Promise<string> {
  const { errors, answers: a } = v;
  const name = { name: f.brand.name };
  const focusHeading = !Object.keys(errors).length && !v.notice;
  const input = (k: keyof ContactForm, type: string, label: string, attrs: Record<string, string | number | boolean>, hint?: string) => (
    <div className="field">
      <label htmlFor={`f-${k}`}>{label}</label>
      {hint && (
        <p className="hint" id={`f-${k}-hint`}>
          {hint}
        </p>
      )}
      <FieldError f={f} errors={errors} k={k} extra={name} />
      <input id={`f-${k}`} name={k} type={type} defaultValue={form[k]} {...attrs} {...invalid(errors, k, hint ? `f-${k}-hint` : undefined)} />
    </div>
  );
  return pricingPage(
    f,
    f.t("contact.heading"),
    <>
      <Heading text={f.t("contact.heading")} focus={focusHeading} />
      <Progress f={f} step="contact" />
      <ErrorSummary f={f} errors={errors} extra={name} />
      <NoticeBlock notice={v.notice ?? null} focus={!focusHeading && !Object.keys(errors).length} />
      <div className="card">
        <form method="post" action={f.base} noValidate>
          <Hidden params={answerParams(a, "contact")} />
          {input("name", "text", f.t("contact.name"), { autoComplete: "name", required: true, maxLength: 120 })}
          {input("email", "email", f.t("contact.email"), { autoComplete: "email", maxLength: 200 }, f.t("contact.either"))}
          {input("phone", "tel", f.t("contact.phone"), { autoComplete: "tel", maxLength: 40 })}
          <fieldset id="f-intent" {...invalid(errors, "intent")}>
            <legend>{f.t("contact.intent")}</legend>
            <FieldError f={f} errors={errors} k="intent" />
            <div className="choices">
              <label className="choice wide">
                <input type="radio" name="intent" value="sell" required defaultChecked={form.intent === "sell"} /> {f.t("contact.sell")}
              </label>
              <label className="choice wide">
                <input type="radio" name="intent" value="value" defaultChecked={form.intent === "value"} /> {f.t("contact.value")}
              </label>
            </div>
          </fieldset>
          <fieldset>
            <legend>{f.t("contact.address")}</legend>
            <p className="hint">{f.t("contact.addressHint")}</p>
            <div className="row2">
              {input("street", "text", f.t("contact.street"), { autoComplete: "address-line1", maxLength: 200 })}
              {input("number", "text", f.t("contact.number"), { maxLength: 20 })}
            </div>
            <div className="row2">
              {input("complement", "text", f.t("contact.complement"), { autoComplete: "address-line2", maxLength: 100 })}
              {input("postalCode", "text", f.t("contact.postalCode"), { autoComplete: "postal-code", inputMode: "numeric", maxLength: 9 })}
            </div>
          </fieldset>
          <fieldset id="f-consent" {...invalid(errors, "consent")}>
            <legend>{f.t("contact.consentLegend")}</legend>
            <FieldError f={f} errors={errors} k="consent" extra={name} />
            <label className="choice">
              <input type="checkbox" name="consent" value="yes" required defaultChecked={form.consent === "yes"} /> {f.t("contact.consent", name)}
            </label>
          </fieldset>
          <StepActions f={f} a={a} from="contact" to="estimate" submit={f.t("contact.send")} />
        </form>
      </div>
      <AnswersList f={f} a={a} labels={labels} neighborhood={a.neighborhood} />
    </>,
  );
}

/** After the lead: thanks, and the way to value another property. */
export function sentPage(f: Frame): Promise<string> {
  return pricingPage(
    f,
    f.t("sent.heading"),
    <>
      <Heading text={f.t("sent.heading")} focus />
      <div className="card" role="status">
        <p>{f.t("sent.text", { name: f.brand.name })}</p>
        <p>
          <a href={f.base}>{f.t("sent.again")}</a>
        </p>
      </div>
    </>,
  );
}

/** Not found, expired or protected: a page of its own with the answer's status. */
export function statusPage(f: Frame, kind: "not_found" | "expired" | "password"): Promise<string> {
  const [title, text] =
    kind === "expired"
      ? [f.t("status.expiredTitle"), f.t("status.expiredText", { name: f.brand.name })]
      : kind === "password"
        ? [f.t("status.passwordTitle"), f.t("status.passwordText")]
        : [f.t("status.notFoundTitle"), f.t("status.notFoundText")];
  return pricingPage(
    { ...f, languages: [f.locale] },
    title,
    <>
      <h1>{title}</h1>
      <div className="card">
        <p>{text}</p>
      </div>
    </>,
  );
}
