import { defaultSharingConfig } from "./sharing-config";
import { defaultDealWorkflow } from "./default-deal-workflow";
import { defaultListingTranslation, defaultSavedSearchDigest, type TenantSettings } from "./settings-schema";

/** What a new tenant starts with: the usual Brazilian residential catalogue and workflow. */
export function defaultSettings(tenantName: string): TenantSettings {
  return {
    listingLanguages: ["pt-BR"],
    listingWorkflow: {
      stages: [
        { id: "draft", label: "Rascunho", statuses: [] },
        { id: "active", label: "Ativo", statuses: ["available", "reserved"] },
        { id: "suspended", label: "Suspenso", statuses: ["owner_request", "pending_documents"] },
        { id: "closed", label: "Encerrado", statuses: ["sold", "rented", "withdrawn"] },
      ],
      activeStageId: "active",
      terminalStageIds: ["closed"],
      defaultStageId: "draft",
    },
    branding: { name: tenantName, logo: null, primaryColor: "#1f6feb" },
    propertyTypes: [
      { id: "apartment", label: "Apartamento" },
      { id: "house", label: "Casa" },
      { id: "condo_house", label: "Casa em condomínio" },
      { id: "penthouse", label: "Cobertura" },
      { id: "studio", label: "Studio" },
      { id: "land", label: "Terreno" },
      { id: "commercial", label: "Comercial" },
      { id: "office", label: "Sala comercial" },
      { id: "farm", label: "Sítio/Fazenda" },
    ],
    propertyFeatures: [
      { id: "balcony", label: "Varanda" },
      { id: "gourmet_balcony", label: "Varanda gourmet" },
      { id: "air_conditioning", label: "Ar-condicionado" },
      { id: "furnished", label: "Mobiliado" },
      { id: "closet", label: "Closet" },
      { id: "service_area", label: "Área de serviço" },
      { id: "backyard", label: "Quintal" },
      { id: "private_pool", label: "Piscina privativa" },
      { id: "barbecue", label: "Churrasqueira" },
      { id: "home_office", label: "Escritório" },
      { id: "sea_view", label: "Vista para o mar" },
      { id: "pets_allowed", label: "Aceita pets" },
    ],
    buildingFeatures: [
      { id: "pool", label: "Piscina" },
      { id: "gym", label: "Academia" },
      { id: "party_room", label: "Salão de festas" },
      { id: "playground", label: "Playground" },
      { id: "concierge_24h", label: "Portaria 24h" },
      { id: "elevator", label: "Elevador" },
      { id: "sauna", label: "Sauna" },
      { id: "coworking", label: "Coworking" },
      { id: "sports_court", label: "Quadra poliesportiva" },
    ],
    primaryMarketEnabled: false,
    dealWorkflow: defaultDealWorkflow(),
    customFields: [],
    leadDistribution: { preferListingBroker: false },
    sharingConfig: defaultSharingConfig(),
    listingTranslation: defaultListingTranslation(),
    savedSearchDigest: defaultSavedSearchDigest(),
  };
}
