import { digits, type Rng } from "./random";

/** The demo agency's team. Phones are typed the way people type them; the API normalises them. */
export const TEAM = [
  {
    name: "Ana Beatriz Carvalho",
    email: "ana.carvalho",
    phone: "(11) 98431-2207",
    creci: "187452-F/SP",
    avatar: "avatar-1.svg",
    city: "São Paulo",
    role: "broker",
  },
  {
    name: "Rafael Nogueira Lima",
    email: "rafael.lima",
    phone: "11 97652-1184",
    creci: "201337-F/SP",
    avatar: "avatar-2.svg",
    city: "São Paulo",
    role: "broker",
  },
  {
    name: "Juliana Martins Rocha",
    email: "juliana.rocha",
    phone: "+55 21 99812-4530",
    creci: "74521-F/RJ",
    avatar: "avatar-3.svg",
    city: "Rio de Janeiro",
    role: "broker",
  },
  {
    name: "Thiago Albuquerque Santos",
    email: "thiago.santos",
    phone: "(21) 98877-3012",
    creci: "81209-F/RJ",
    avatar: "avatar-4.svg",
    city: "Rio de Janeiro",
    role: "broker",
  },
  {
    name: "Camila Ferreira Duarte",
    email: "camila.duarte",
    phone: "(31) 99123-7788",
    creci: "39874-F/MG",
    avatar: "avatar-5.svg",
    city: "Belo Horizonte",
    role: "broker",
  },
  {
    name: "Marcelo Andrade Ribeiro",
    email: "marcelo.ribeiro",
    phone: "(11) 3061-4400",
    creci: "95310-F/SP",
    avatar: "avatar-6.svg",
    city: "São Paulo",
    role: "manager",
  },
] as const;

/** Reserved domain (RFC 2606): the demo never e-mails a real mailbox. */
export const TEAM_DOMAIN = "casanovaimoveis.example";

export const OWNER = { name: "Helena Vasconcelos", email: `helena@${TEAM_DOMAIN}`, phone: "(11) 99701-5521" };

const FIRST = [
  "Roberto",
  "Fernanda",
  "Paulo",
  "Luciana",
  "Eduardo",
  "Patrícia",
  "Gustavo",
  "Mariana",
  "Ricardo",
  "Cláudia",
  "André",
  "Beatriz",
  "Fábio",
  "Renata",
  "Sérgio",
  "Tatiana",
  "Marcos",
  "Vanessa",
  "José",
  "Aline",
  "Luiz",
  "Cristina",
  "Felipe",
  "Débora",
  "Antônio",
  "Gabriela",
  "Rodrigo",
  "Isabela",
  "Henrique",
  "Letícia",
];
const LAST = [
  "Almeida",
  "Souza",
  "Oliveira",
  "Pereira",
  "Costa",
  "Rodrigues",
  "Gomes",
  "Barbosa",
  "Ribeiro",
  "Teixeira",
  "Moreira",
  "Cardoso",
  "Mendes",
  "Freitas",
  "Araújo",
  "Castro",
  "Pinto",
  "Monteiro",
  "Cavalcanti",
  "Azevedo",
  "Farias",
  "Rezende",
  "Siqueira",
  "Bastos",
  "Queiroz",
  "Sampaio",
  "Machado",
  "Batista",
];

const ascii = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();

/** A CPF with correct check digits (the API validates them). */
export function fakeCpf(rng: Rng): string {
  const d = Array.from({ length: 9 }, () => rng.int(0, 9));
  if (d.every((x) => x === d[0])) d[0] = (d[0] + 1) % 10;
  for (const len of [9, 10]) {
    const sum = d.slice(0, len).reduce((s, x, i) => s + x * (len + 1 - i), 0);
    const r = (sum * 10) % 11;
    d.push(r === 10 ? 0 : r);
  }
  const s = d.join("");
  return `${s.slice(0, 3)}.${s.slice(3, 6)}.${s.slice(6, 9)}-${s.slice(9)}`;
}

/** A Brazilian mobile number in the usual local format, e.g. "(21) 98765-4321". */
export const mobile = (rng: Rng, ddd: string) => `(${ddd}) 9${rng.int(6, 9)}${digits(rng, 3)}-${digits(rng, 4)}`;

export function propertyOwner(rng: Rng, ddd: string) {
  const first = rng.pick(FIRST);
  const last = `${rng.pick(LAST)} ${rng.pick(LAST)}`;
  const phone = mobile(rng, ddd);
  return {
    name: `${first} ${last}`,
    email: `${ascii(first)}.${ascii(last.split(" ")[1])}${rng.int(1, 99)}@example.com`,
    phone,
    whatsapp: rng.chance(0.7) ? phone : null,
    cpf: rng.chance(0.8) ? fakeCpf(rng) : null,
  };
}
