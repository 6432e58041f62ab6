import { answerParams } from "@/lib/share/pricing-flow";
import { ErrorSummary, FieldError, Heading, Hidden, invalid, NoticeBlock, Progress, StepActions, type StepView } from "./form-parts";
import { pricingPage, type Frame } from "./pricing-document";

/** Step 3: the property (type, area, rooms), then the estimate. `types` are the tenant's, each named in the visitor's language. */
export function profilePage(f: Frame, v: StepView, types: { id: string; label: string }[]): Promise<string> {
  const { errors, answers: a } = v;
  const focusHeading = !Object.keys(errors).length && !v.notice;
  const count = (k: "bedrooms" | "bathrooms" | "parkingSpaces", label: string) => (
    <div className="field">
      <label htmlFor={`f-${k}`}>
        {label} <span className="muted">({f.t("optional")})</span>
      </label>
      <FieldError f={f} errors={errors} k={k} />
      <input
        id={`f-${k}`}
        name={k === "parkingSpaces" ? "parking" : k}
        type="number"
        inputMode="numeric"
        min="0"
        max="50"
        step="1"
        defaultValue={a[k]}
        {...invalid(errors, k)}
      />
    </div>
  );
  return pricingPage(
    f,
    f.t("profile.heading"),
    <>
      <Heading text={f.t("profile.heading")} focus={focusHeading} />
      <Progress f={f} step="profile" />
      <ErrorSummary f={f} errors={errors} />
      <NoticeBlock notice={v.notice ?? null} focus={!focusHeading} />
      <div className="card">
        <form method="get" action={f.base} noValidate>
          <Hidden params={answerParams(a, "profile")} />
          <input type="hidden" name="step" value="estimate" />
          <fieldset id="f-propertyType" {...invalid(errors, "propertyType")}>
            <legend>{f.t("profile.type")}</legend>
            <FieldError f={f} errors={errors} k="propertyType" />
            <div className="choices">
              {types.map((t, i) => (
                <label key={t.id} className="choice">
                  <input type="radio" name="type" value={t.id} defaultChecked={a.propertyType === t.id} required={i === 0} /> {t.label}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="field">
            <label htmlFor="f-totalArea">{f.t("profile.area")}</label>
            <p className="hint" id="f-totalArea-hint">
              {f.t("profile.areaHint")}
            </p>
            <FieldError f={f} errors={errors} k="totalArea" />
            <input
              id="f-totalArea"
              name="area"
              type="text"
              inputMode="decimal"
              required
              maxLength={12}
              defaultValue={a.totalArea}
              {...invalid(errors, "totalArea", "f-totalArea-hint")}
            />
          </div>
          <div className="row">
            {count("bedrooms", f.t("profile.bedrooms"))}
            {count("bathrooms", f.t("profile.bathrooms"))}
            {count("parkingSpaces", f.t("profile.parking"))}
          </div>
          <StepActions f={f} a={a} from="profile" to="neighborhood" submit={f.t("profile.submit")} />
        </form>
      </div>
    </>,
  );
}
