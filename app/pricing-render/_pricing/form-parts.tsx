import { answerParams, PRICING_STEPS, type Answers, type FieldErrors, type PricingStep } from "@/lib/share/pricing-flow";
import type { Frame } from "./pricing-document";

/** `?a=1&b=2` from answers, "" when there are none. */
export const q = (params: [string, string][]) => (params.length ? `?${new URLSearchParams(params).toString()}` : "");

/** The answers so far, carried by a GET form from step to step. */
export function Hidden({ params }: { params: [string, string][] }) {
  return (
    <>
      {params.map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
    </>
  );
}

/** The progress bar: the five steps, the current one marked for assistive technology. */
export function Progress({ f, step }: { f: Frame; step: PricingStep }) {
  const at = PRICING_STEPS.indexOf(step as (typeof PRICING_STEPS)[number]);
  return (
    <ol className="steps" aria-label={f.t("progress")}>
      {PRICING_STEPS.map((s, i) =>
        i === at ? (
          <li key={s} aria-current="step">
            <span className="sr-only">{f.t("stepOf", { n: i + 1, total: PRICING_STEPS.length })}: </span>
            {f.t(`steps.${s}`)}
          </li>
        ) : (
          <li key={s} className={i < at ? "done" : ""}>
            {f.t(`steps.${s}`)}
          </li>
        ),
      )}
    </ol>
  );
}

/** The error summary (focused on load) with links to each field. */
export function ErrorSummary({ f, errors, extra = {} }: { f: Frame; errors: FieldErrors; extra?: Record<string, string | number> }) {
  const entries = Object.entries(errors);
  if (!entries.length) return null;
  return (
    <div className="errors" role="alert" tabIndex={-1} autoFocus id="errors">
      <strong>{f.t("errors.summary", { count: entries.length })}</strong>
      <ul>
        {entries.map(([k, code]) => (
          <li key={k}>
            <a href={`#f-${k}`}>{f.t(`errors.${code}`, extra)}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A field's own error message, tied to it by `aria-describedby` (see `invalid`). */
export function FieldError({ f, errors, k, extra = {} }: { f: Frame; errors: FieldErrors; k: string; extra?: Record<string, string | number> }) {
  return errors[k] ? (
    <p className="err" id={`f-${k}-err`}>
      {f.t(`errors.${errors[k]}`, extra)}
    </p>
  ) : null;
}

/** `aria-invalid` and `aria-describedby` (the hint, the error) of a field. */
export function invalid(errors: FieldErrors, k: string, hint?: string): { "aria-invalid"?: true; "aria-describedby"?: string } {
  const ids = [hint, errors[k] ? `f-${k}-err` : null].filter(Boolean).join(" ");
  return { ...(errors[k] ? { "aria-invalid": true as const } : {}), ...(ids ? { "aria-describedby": ids } : {}) };
}

/** A notice (rate limit, unavailable) shown above a step. */
export type Notice = { text: string } | null;

export function NoticeBlock({ notice, focus }: { notice: Notice; focus: boolean }) {
  if (!notice) return null;
  return focus ? (
    <p className="notice" role="alert" tabIndex={-1} autoFocus>
      {notice.text}
    </p>
  ) : (
    <p className="notice" role="alert">
      {notice.text}
    </p>
  );
}

/** The step's heading, focused on arrival when nothing else (an error, a notice) should be. */
export function Heading({ text, focus }: { text: string; focus: boolean }) {
  return focus ? (
    <h1 tabIndex={-1} autoFocus>
      {text}
    </h1>
  ) : (
    <h1>{text}</h1>
  );
}

export type StepView = { step: PricingStep; answers: Answers; errors: FieldErrors; notice?: Notice };

/** A step's way back (to `to`, with the answers before it) and its submit button. */
export function StepActions({ f, a, from, to, submit }: { f: Frame; a: Answers; from: PricingStep; to: PricingStep; submit: string }) {
  return (
    <div className="actions">
      <a href={`${f.base}${q([...answerParams(a, from), ["step", to]])}`}>{f.t("back")}</a>
      <button className="btn" type="submit">
        {submit}
      </button>
    </div>
  );
}
