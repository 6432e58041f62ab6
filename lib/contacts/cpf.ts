import { z } from "zod";

/** Brazilian CPF check: 11 digits, not all equal, both check digits right. */
export function isValidCpf(input: string): boolean {
  const d = input.replace(/\D/g, "");
  if (d.length !== 11 || /^(\d)\1{10}$/.test(d)) return false;
  const check = (len: number) => {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(d[i]) * (len + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  return check(9) === Number(d[9]) && check(10) === Number(d[10]);
}

/** zod field: a CPF with or without punctuation, stored as its 11 digits. */
export const CpfSchema = z
  .string()
  .trim()
  .refine(isValidCpf, "is not a valid CPF (11 digits with correct check digits)")
  .transform((v) => v.replace(/\D/g, ""))
  .meta({ description: "CPF, with or without punctuation; stored as 11 digits.", example: "529.982.247-25" });
