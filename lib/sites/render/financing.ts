/**
 * The financing simulator of a sale listing's page: monthly payments of the two Brazilian
 * amortisation systems. SAC: constant amortisation, decreasing payments. Price (French table):
 * constant payments. The annual rate is converted to the equivalent monthly rate
 * ((1 + a)^(1/12) - 1), as Brazilian banks quote it. Amounts in reais, rounded to cents.
 */

export type FinancingInput = { price: number; downPayment: number; annualRatePercent: number; years: number };
export type Financing = {
  financed: number;
  months: number;
  monthlyRate: number;
  sac: { first: number; last: number; total: number };
  price: { monthly: number; total: number };
};

const cents = (v: number) => Math.round(v * 100) / 100;

export const DEFAULT_FINANCING = { downPaymentShare: 0.2, annualRatePercent: 11.5, years: 30 };

export function monthlyRate(annualRatePercent: number): number {
  return (1 + annualRatePercent / 100) ** (1 / 12) - 1;
}

/** Null when the input cannot be financed (no price, down payment at or above the price, bad term or rate). */
export function simulateFinancing(input: FinancingInput): Financing | null {
  const { price, downPayment, annualRatePercent, years } = input;
  if (!(price > 0) || !(downPayment >= 0) || downPayment >= price) return null;
  if (!Number.isInteger(years) || years < 1 || years > 35) return null;
  if (!(annualRatePercent >= 0) || annualRatePercent > 50) return null;
  const financed = price - downPayment;
  const n = years * 12;
  const i = monthlyRate(annualRatePercent);
  const amort = financed / n;
  // SAC: payment k (1-based) = amortisation + interest on the balance before it.
  const sacPayment = (k: number) => amort + (financed - amort * (k - 1)) * i;
  const sacTotal = financed + (i * amort * (n * (n + 1))) / 2;
  const pmt = i === 0 ? financed / n : (financed * i) / (1 - (1 + i) ** -n);
  return {
    financed: cents(financed),
    months: n,
    monthlyRate: i,
    sac: { first: cents(sacPayment(1)), last: cents(sacPayment(n)), total: cents(sacTotal) },
    price: { monthly: cents(pmt), total: cents(pmt * n) },
  };
}

/** The simulator's form values from the URL (`?entrada=...&juros=...&prazo=...`), defaults for the rest. */
export function financingFromQuery(price: number, raw: Record<string, string | string[] | undefined>): FinancingInput {
  const num = (k: string) => {
    const v = raw[k];
    const s = (Array.isArray(v) ? v[0] : v)?.replace(",", ".").trim();
    const n = s ? Number(s) : NaN;
    return Number.isFinite(n) ? n : undefined;
  };
  return {
    price,
    downPayment: num("entrada") ?? Math.round(price * DEFAULT_FINANCING.downPaymentShare),
    annualRatePercent: num("juros") ?? DEFAULT_FINANCING.annualRatePercent,
    years: num("prazo") ?? DEFAULT_FINANCING.years,
  };
}
