import { arr, obj, str, type Doc } from "./doc-fields";

/** A listing's features by the tenant's names for them (`propertyFeatures`), an unknown id as written. */
export function featureLabels(doc: Doc, tenantFeatures: unknown): string[] {
  const names = new Map(
    arr(tenantFeatures)
      .map(obj)
      .map((f) => [str(f.id), str(f.label)]),
  );
  return arr(doc.features)
    .map(str)
    .filter(Boolean)
    .map((f) => names.get(f) || f);
}
