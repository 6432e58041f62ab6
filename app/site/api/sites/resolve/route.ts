/** Spec 2 §1: the resolve endpoint is also served under `/site/api/sites/resolve` (the CDN address). */
export { GET, OPTIONS } from "@/app/api/sites/resolve/route";
