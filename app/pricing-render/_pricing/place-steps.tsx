import type { PricingCity } from "@/lib/share/pricing-cities";
import { answerParams } from "@/lib/share/pricing-flow";
import { ErrorSummary, FieldError, Heading, Hidden, invalid, NoticeBlock, Progress, q, StepActions, type StepView } from "./form-parts";
import { pricingPage, type Frame } from "./pricing-document";

const cityLabel = (c: PricingCity) => (c.state ? `${c.label} — ${c.state}` : c.label);

/** Step 1: the city, among the tool's cities (radio buttons for a few, a select for many). */
export function cityPage(f: Frame, v: StepView, cities: PricingCity[]): Promise<string> {
  const { errors } = v;
  const hasErr = Boolean(Object.keys(errors).length || v.notice);
  const field =
    cities.length <= 8 ? (
      <fieldset id="f-city" {...invalid(errors, "city")}>
        <legend>{f.t("city.legend")}</legend>
        <FieldError f={f} errors={errors} k="city" />
        <div className="choices one">
          {cities.map((c, i) => (
            <label key={c.code} className="choice">
              <input type="radio" name="city" value={c.code} defaultChecked={v.answers.city === c.code} required={i === 0} /> {cityLabel(c)}
            </label>
          ))}
        </div>
      </fieldset>
    ) : (
      <div className="field">
        <label htmlFor="f-city">{f.t("city.legend")}</label>
        <FieldError f={f} errors={errors} k="city" />
        <select id="f-city" name="city" required {...invalid(errors, "city")} defaultValue={v.answers.city}>
          <option value="">—</option>
          {cities.map((c) => (
            <option key={c.code} value={c.code}>
              {cityLabel(c)}
            </option>
          ))}
        </select>
      </div>
    );
  return pricingPage(
    f,
    f.t("title"),
    <>
      <Heading text={f.t("title")} focus={false} />
      <p className="by">{f.t("intro")}</p>
      <Progress f={f} step="city" />
      <ErrorSummary f={f} errors={errors} />
      <NoticeBlock notice={v.notice ?? null} focus={hasErr} />
      <div className="card">
        {cities.length ? (
          <form method="get" action={f.base} noValidate>
            <input type="hidden" name="step" value="neighborhood" />
            {field}
            <div className="actions">
              <span></span>
              <button className="btn" type="submit">
                {f.t("continue")}
              </button>
            </div>
          </form>
        ) : (
          <p>{f.t("city.none", { name: f.brand.name })}</p>
        )}
      </div>
    </>,
  );
}

/** Step 2: the neighbourhood, typed with the city's suggestions; a typo gets "did you mean" links. */
export function neighborhoodPage(f: Frame, v: StepView, city: PricingCity, suggestions: string[], didYouMean: string[] | null): Promise<string> {
  const { errors, answers: a } = v;
  const focusHeading = !Object.keys(errors).length && !v.notice;
  const keep = [...answerParams(a, "neighborhood"), ["neighborhood", a.neighborhood], ["nbok", "1"], ["step", "profile"]] as [string, string][];
  const pick = (name: string) => q([...answerParams(a, "neighborhood"), ["neighborhood", name], ["step", "profile"]]);
  return pricingPage(
    f,
    f.t("neighborhood.heading"),
    <>
      <Heading text={f.t("neighborhood.heading")} focus={focusHeading && !didYouMean} />
      <Progress f={f} step="neighborhood" />
      <ErrorSummary f={f} errors={errors} />
      <NoticeBlock notice={v.notice ?? null} focus={!focusHeading} />
      {didYouMean && (
        <div className="notice" role="status">
          <p tabIndex={-1} autoFocus id="dym">
            {f.t("neighborhood.didYouMean", { typed: a.neighborhood, city: city.label })}
          </p>
          <ul>
            {didYouMean.map((n) => (
              <li key={n}>
                <a href={`${f.base}${pick(n)}`}>{n}</a>
              </li>
            ))}
            <li>
              <a href={`${f.base}${q(keep)}`}>{f.t("neighborhood.keep", { typed: a.neighborhood })}</a>
            </li>
          </ul>
        </div>
      )}
      <div className="card">
        <form method="get" action={f.base} noValidate>
          <Hidden params={answerParams(a, "neighborhood")} />
          <input type="hidden" name="step" value="profile" />
          <div className="field">
            <label htmlFor="f-neighborhood">{f.t("neighborhood.label", { city: city.label })}</label>
            <p className="hint" id="f-neighborhood-hint">
              {f.t("neighborhood.hint")}
            </p>
            <FieldError f={f} errors={errors} k="neighborhood" />
            <input
              id="f-neighborhood"
              name="neighborhood"
              type="text"
              list="nb-list"
              autoComplete="off"
              required
              maxLength={120}
              defaultValue={a.neighborhood}
              {...invalid(errors, "neighborhood", "f-neighborhood-hint")}
              data-suggest={`/api/sites/share/${f.token}/neighborhoods?city=${encodeURIComponent(city.code)}`}
              data-none={f.t("neighborhood.suggestions", { count: 0 })}
              data-one={f.t("neighborhood.suggestions", { count: 1 })}
              data-other={f.t("neighborhood.suggestions", { count: 7 }).replace("7", "#")}
            />
            <datalist id="nb-list">
              {suggestions.map((s) => (
                <option key={s} value={s}></option>
              ))}
            </datalist>
            <p className="sr-only" id="nb-status" aria-live="polite"></p>
          </div>
          <StepActions f={f} a={a} from="neighborhood" to="city" submit={f.t("continue")} />
        </form>
      </div>
    </>,
  );
}
