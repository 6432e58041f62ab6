/**
 * Neighbourhoods of the demo, with real streets, CEP ranges, coordinates near the real centre and
 * a typical asking price per m² for sales (2024–2025 market levels, rounded).
 */
export type Neighborhood = {
  name: string;
  /** Portuguese preposition + article used before the name: "em Pinheiros", "na Tijuca", "nos Jardins". */
  prep: "em" | "no" | "na" | "nos";
  lat: number;
  lng: number;
  cep: string[];
  streets: string[];
  pricePerSqm: number;
  /** A nearby reference with its contracted article, read after "perto": "do metrô Fradique Coutinho". */
  landmark: string;
  beach?: boolean;
};

export type City = { city: string; state: "SP" | "RJ" | "MG"; ddd: string; weight: number; neighborhoods: Neighborhood[] };

export const CITIES: City[] = [
  {
    city: "São Paulo", state: "SP", ddd: "11", weight: 45,
    neighborhoods: [
      { name: "Pinheiros", prep: "em", lat: -23.5662, lng: -46.6912, cep: ["05422", "05419", "05414"], pricePerSqm: 15000, landmark: "do metrô Fradique Coutinho",
        streets: ["Rua dos Pinheiros", "Rua Cardeal Arcoverde", "Rua Teodoro Sampaio", "Rua Artur de Azevedo", "Rua Mourato Coelho"] },
      { name: "Vila Madalena", prep: "na", lat: -23.5538, lng: -46.6903, cep: ["05433", "05435", "05445"], pricePerSqm: 13500, landmark: "do metrô Vila Madalena",
        streets: ["Rua Harmonia", "Rua Aspicuelta", "Rua Wisard", "Rua Girassol", "Rua Fradique Coutinho"] },
      { name: "Moema", prep: "em", lat: -23.6008, lng: -46.6652, cep: ["04077", "04080", "04521"], pricePerSqm: 14500, landmark: "do Parque Ibirapuera",
        streets: ["Alameda dos Maracatins", "Avenida Ibirapuera", "Alameda dos Nhambiquaras", "Rua Canário", "Alameda Jauaperi"] },
      { name: "Jardins", prep: "nos", lat: -23.5672, lng: -46.6597, cep: ["01424", "01419", "01418"], pricePerSqm: 17500, landmark: "da Rua Oscar Freire",
        streets: ["Alameda Lorena", "Rua Haddock Lobo", "Alameda Santos", "Rua Oscar Freire", "Alameda Franca"] },
      { name: "Itaim Bibi", prep: "no", lat: -23.5846, lng: -46.6798, cep: ["04532", "04534", "04530"], pricePerSqm: 18000, landmark: "do Parque do Povo",
        streets: ["Rua Joaquim Floriano", "Rua Tabapuã", "Rua Bandeira Paulista", "Rua Jerônimo da Veiga", "Avenida Horácio Lafer"] },
      { name: "Perdizes", prep: "em", lat: -23.5372, lng: -46.6771, cep: ["05014", "05015", "05016"], pricePerSqm: 11500, landmark: "da PUC-SP",
        streets: ["Rua Cardoso de Almeida", "Rua Monte Alegre", "Rua Apinajés", "Rua Cayowaá", "Rua Ministro Godói"] },
      { name: "Tatuapé", prep: "no", lat: -23.5404, lng: -46.5762, cep: ["03310", "03318", "03307"], pricePerSqm: 9500, landmark: "do metrô Tatuapé",
        streets: ["Rua Tuiuti", "Rua Itapura", "Rua Serra de Bragança", "Rua Emília Marengo", "Rua Azevedo Soares"] },
      { name: "Santana", prep: "em", lat: -23.5018, lng: -46.6248, cep: ["02012", "02013", "02035"], pricePerSqm: 9000, landmark: "do metrô Santana",
        streets: ["Rua Voluntários da Pátria", "Rua Alfredo Pujol", "Rua Dr. César", "Rua Leite de Morais", "Rua Conselheiro Moreira de Barros"] },
      { name: "Brooklin", prep: "no", lat: -23.6138, lng: -46.6897, cep: ["04571", "04563", "04567"], pricePerSqm: 12500, landmark: "da Avenida Roberto Marinho",
        streets: ["Rua Bernardino de Campos", "Rua Barão do Triunfo", "Rua Princesa Isabel", "Rua Joaquim Nabuco", "Rua Pensilvânia"] },
      { name: "Vila Mariana", prep: "na", lat: -23.5891, lng: -46.6349, cep: ["04014", "04116", "04017"], pricePerSqm: 12500, landmark: "do metrô Ana Rosa",
        streets: ["Rua Domingos de Morais", "Rua Joaquim Távora", "Rua França Pinto", "Rua Sena Madureira", "Rua Humberto I"] },
    ],
  },
  {
    city: "Rio de Janeiro", state: "RJ", ddd: "21", weight: 33,
    neighborhoods: [
      { name: "Copacabana", prep: "em", lat: -22.9711, lng: -43.1863, cep: ["22020", "22041", "22070"], pricePerSqm: 13500, landmark: "da praia de Copacabana", beach: true,
        streets: ["Avenida Nossa Senhora de Copacabana", "Rua Barata Ribeiro", "Rua Santa Clara", "Rua Figueiredo de Magalhães", "Rua Siqueira Campos"] },
      { name: "Ipanema", prep: "em", lat: -22.9838, lng: -43.2044, cep: ["22410", "22411", "22420"], pricePerSqm: 23000, landmark: "da praia de Ipanema", beach: true,
        streets: ["Rua Visconde de Pirajá", "Rua Prudente de Morais", "Rua Barão da Torre", "Rua Garcia d'Ávila", "Rua Farme de Amoedo"] },
      { name: "Leblon", prep: "no", lat: -22.9843, lng: -43.2235, cep: ["22430", "22440", "22441"], pricePerSqm: 25000, landmark: "da praia do Leblon", beach: true,
        streets: ["Avenida Ataulfo de Paiva", "Rua Dias Ferreira", "Rua General Urquiza", "Rua Aristides Espínola", "Rua José Linhares"] },
      { name: "Botafogo", prep: "em", lat: -22.9511, lng: -43.1843, cep: ["22250", "22260", "22280"], pricePerSqm: 12500, landmark: "do metrô Botafogo",
        streets: ["Rua Voluntários da Pátria", "Rua São Clemente", "Rua Real Grandeza", "Rua Sorocaba", "Rua Dona Mariana"] },
      { name: "Tijuca", prep: "na", lat: -22.9249, lng: -43.2372, cep: ["20510", "20520", "20550"], pricePerSqm: 7500, landmark: "do metrô Saens Peña",
        streets: ["Rua Conde de Bonfim", "Rua Uruguai", "Rua São Francisco Xavier", "Rua Barão de Mesquita", "Rua Almirante Cochrane"] },
      { name: "Barra da Tijuca", prep: "na", lat: -23.0004, lng: -43.3659, cep: ["22620", "22631", "22640"], pricePerSqm: 10500, landmark: "da praia da Barra", beach: true,
        streets: ["Avenida Lúcio Costa", "Avenida das Américas", "Rua Jornalista Henrique Cordeiro", "Avenida Olegário Maciel", "Rua Professor Álvaro Rodrigues"] },
      { name: "Flamengo", prep: "no", lat: -22.9329, lng: -43.1761, cep: ["22210", "22220", "22230"], pricePerSqm: 11500, landmark: "do Aterro do Flamengo",
        streets: ["Rua Marquês de Abrantes", "Rua Senador Vergueiro", "Praia do Flamengo", "Rua Paissandu", "Rua Barão do Flamengo"] },
      { name: "Laranjeiras", prep: "em", lat: -22.9363, lng: -43.1879, cep: ["22240", "22231", "22245"], pricePerSqm: 10500, landmark: "do Parque Guinle",
        streets: ["Rua das Laranjeiras", "Rua Pereira da Silva", "Rua General Glicério", "Rua Alice", "Rua Gago Coutinho"] },
    ],
  },
  {
    city: "Belo Horizonte", state: "MG", ddd: "31", weight: 22,
    neighborhoods: [
      { name: "Savassi", prep: "na", lat: -19.9385, lng: -43.9342, cep: ["30112", "30140", "30130"], pricePerSqm: 11500, landmark: "da Praça da Savassi",
        streets: ["Rua Pernambuco", "Rua Antônio de Albuquerque", "Rua Tomé de Souza", "Avenida Getúlio Vargas", "Rua Fernandes Tourinho"] },
      { name: "Lourdes", prep: "em", lat: -19.9312, lng: -43.9419, cep: ["30170", "30180", "30160"], pricePerSqm: 12500, landmark: "do Mercado Central",
        streets: ["Rua Curitiba", "Rua São Paulo", "Rua Bernardo Guimarães", "Rua Araguari", "Rua Marília de Dirceu"] },
      { name: "Funcionários", prep: "no", lat: -19.9334, lng: -43.9288, cep: ["30130", "30140", "30150"], pricePerSqm: 11000, landmark: "da Praça da Liberdade",
        streets: ["Rua Cláudio Manoel", "Rua Alagoas", "Rua Gonçalves Dias", "Rua Piauí", "Rua Sergipe"] },
      { name: "Sion", prep: "no", lat: -19.9532, lng: -43.9351, cep: ["30310", "30315", "30320"], pricePerSqm: 9500, landmark: "da Avenida Nossa Senhora do Carmo",
        streets: ["Rua Pium-í", "Rua Grão Mogol", "Avenida Uruguai", "Rua Cônego Rocha Franco", "Rua Haiti"] },
      { name: "Buritis", prep: "no", lat: -19.9748, lng: -43.9702, cep: ["30575", "30493", "30455"], pricePerSqm: 7000, landmark: "do Parque Aggeo Pio Sobrinho",
        streets: ["Avenida Professor Mário Werneck", "Rua José Rodrigues Pereira", "Rua Henrique Badaró Portugal", "Rua Engenheiro Alberto Pontes"] },
      { name: "Pampulha", prep: "na", lat: -19.8579, lng: -43.9851, cep: ["31270", "31275", "31365"], pricePerSqm: 6500, landmark: "da Lagoa da Pampulha",
        streets: ["Avenida Otacílio Negrão de Lima", "Avenida Fleming", "Rua Expedicionário Benvindo Belém de Lima", "Rua Versília"] },
      { name: "Santo Agostinho", prep: "no", lat: -19.9268, lng: -43.9478, cep: ["30170", "30190", "30160"], pricePerSqm: 11000, landmark: "da Assembleia Legislativa",
        streets: ["Rua Mato Grosso", "Rua Tenente Brito Melo", "Avenida Olegário Maciel", "Rua Santa Catarina"] },
    ],
  },
];

/** "em Pinheiros", "na Tijuca": the Portuguese phrase for "in <neighbourhood>". */
export const inPt = (n: Neighborhood) => `${n.prep} ${n.name}`;
