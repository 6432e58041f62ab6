import { sql, type SQL } from "drizzle-orm";

/** [neighborhood, city, state, lat, lng] */
export const HOODS: [string, string, string, number, number][] = [
  ["Pinheiros", "São Paulo", "SP", -23.5665, -46.6915],
  ["Moema", "São Paulo", "SP", -23.6009, -46.6658],
  ["Jardins", "São Paulo", "SP", -23.5672, -46.6624],
  ["Vila Madalena", "São Paulo", "SP", -23.5538, -46.6908],
  ["Itaim Bibi", "São Paulo", "SP", -23.5846, -46.6795],
  ["Perdizes", "São Paulo", "SP", -23.5366, -46.6779],
  ["Tatuapé", "São Paulo", "SP", -23.5403, -46.5766],
  ["Santana", "São Paulo", "SP", -23.5021, -46.6281],
  ["Brooklin", "São Paulo", "SP", -23.6127, -46.6888],
  ["Vila Mariana", "São Paulo", "SP", -23.5891, -46.6347],
  ["Copacabana", "Rio de Janeiro", "RJ", -22.9711, -43.1822],
  ["Ipanema", "Rio de Janeiro", "RJ", -22.9838, -43.2096],
  ["Leblon", "Rio de Janeiro", "RJ", -22.9845, -43.223],
  ["Botafogo", "Rio de Janeiro", "RJ", -22.9511, -43.1809],
  ["Tijuca", "Rio de Janeiro", "RJ", -22.9249, -43.2311],
  ["Barra da Tijuca", "Rio de Janeiro", "RJ", -23.0004, -43.3659],
  ["Flamengo", "Rio de Janeiro", "RJ", -22.9326, -43.1737],
  ["Savassi", "Belo Horizonte", "MG", -19.9386, -43.9346],
  ["Lourdes", "Belo Horizonte", "MG", -19.9312, -43.944],
  ["Funcionários", "Belo Horizonte", "MG", -19.933, -43.929],
  ["Sion", "Belo Horizonte", "MG", -19.9518, -43.9313],
  ["Buritis", "Belo Horizonte", "MG", -19.9738, -43.97],
];

const arr = (values: (string | number)[]) =>
  sql.raw(`ARRAY[${values.map((v) => (typeof v === "number" ? String(v) : `'${v.replace(/'/g, "''")}'`)).join(",")}]`);

/**
 * Properties and one listing each, generated inside PostgreSQL (fast: no round trip per row).
 * Values are deterministic functions of the row number, so every run indexes the same data.
 */
export function generateListingsSql(tenantId: string, ownerId: string, count: number): SQL {
  const H = HOODS.length;
  return sql`
    with p as (
      insert into properties (tenant_id, type, bedrooms, bathrooms, suites, parking_spaces, total_area, features,
        condominium_fee, property_tax, street, neighborhood, city, state, latitude, longitude, created_by_id, assigned_to_id, created_at, updated_at)
      select ${tenantId}::uuid,
        (array['apartment','apartment','house','penthouse','studio'])[1 + n % 5],
        1 + n % 5, 1 + n % 3, n % 3, n % 4, (35 + (n * 37) % 400)::numeric,
        (array['["balcony"]','["balcony","barbecue"]','["private_pool"]','[]','["gourmet_balcony","air_conditioning"]'])[1 + n % 5]::jsonb,
        (300 + (n * 13) % 3000)::numeric, (500 + (n * 17) % 8000)::numeric,
        'Rua ' || (array['das Flores','Augusta','Oscar Freire','Haddock Lobo','Bela Cintra','Harmonia','dos Pinheiros'])[1 + n % 7],
        (${arr(HOODS.map((h) => h[0]))})[1 + n % ${H}], (${arr(HOODS.map((h) => h[1]))})[1 + n % ${H}],
        (${arr(HOODS.map((h) => h[2]))})[1 + n % ${H}],
        (${arr(HOODS.map((h) => h[3]))})[1 + n % ${H}] + ((n * 7919) % 2000 - 1000) / 100000.0,
        (${arr(HOODS.map((h) => h[4]))})[1 + n % ${H}] + ((n * 104729) % 2000 - 1000) / 100000.0,
        ${ownerId}::uuid, ${ownerId}::uuid, now() - (n || ' minutes')::interval, now()
      from generate_series(1::bigint, ${count}::bigint) n
      returning id, type, bedrooms, neighborhood, created_at
    ), numbered as (select p.*, row_number() over () as n from p),
    m as (
      insert into media (tenant_id, property_id, url, "order", is_primary)
      select ${tenantId}::uuid, id, '/demo/photo-' || (n % 20) || '.svg', 0, true from numbered where n % 3 <> 0
    )
    insert into listings (tenant_id, property_id, title, description, type, price, visibility, stage, status, listing_code,
      created_by_id, published_at, created_at, updated_at)
    select ${tenantId}::uuid, id,
      (case type when 'apartment' then 'Apartamento' when 'house' then 'Casa' when 'penthouse' then 'Cobertura' else 'Studio' end)
        || ' com ' || bedrooms || ' quartos ' || (array['reformado','com varanda gourmet','com piscina','mobiliado','vista mar','perto do metrô'])[1 + n % 6]
        || ' em ' || neighborhood,
      'Imóvel em ' || neighborhood || ', ótima localização, próximo a parques, escolas e comércio. '
        || (array['Aceita financiamento.','Condomínio com lazer completo.','Sol da manhã.','Andar alto, silencioso.'])[1 + n % 4],
      (case when n % 4 = 0 then 'rental' else 'sale' end)::listing_type,
      (case when n % 4 = 0 then 1500 + (n * 31) % 12000 else 250000 + (n * 7907) % 4000000 end)::numeric,
      (case when n % 10 = 0 then 'private' else 'public' end)::listing_visibility,
      'active', 'available', 'BN' || n || '-' || substr(${tenantId}, 1, 4),
      ${ownerId}::uuid, created_at, created_at, now()
    from numbered`;
}
