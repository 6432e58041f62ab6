export * from "./tenants";
export * from "./members";
export * from "./api-keys";
export * from "./developments";
export * from "./properties";
export * from "./listings";
export * from "./events";
